/*
 * The per-output half of the Lodestone plugin: Wayfire composes the frame with OpenGL, and
 * the library draws the pointer into ARGB pixels on the CPU. Each frame the painter reads
 * the composed pixels under the presentation's damage back from the output's framebuffer,
 * lets lodestone_pointer_engine_draw draw the pointer and its effects over them (the lift
 * and the highlight read the element's pixels there), and draws the result back as a
 * texture in an overlay hook, over everything Wayfire drew.
 */
#pragma once

#include <deque>
#include <vector>

#include <wayfire/opengl.hpp>
#include <wayfire/render-manager.hpp>

#include "host.hpp"

namespace lodestone_wayfire
{
class output_painter_t
{
  public:
    output_painter_t(wf::output_t *output, host_t& host);
    ~output_painter_t();
    output_painter_t(const output_painter_t&) = delete;
    output_painter_t& operator =(const output_painter_t&) = delete;

  private:
    /** Before Wayfire gathers the frame's damage: step the engine; when the frame repaints
     *  anything, repaint under the pointer too (it is drawn from freshly composed pixels). */
    void frame_started();
    /** Over the composed frame: the pointer. */
    void draw();
    /** Framebuffer pixels `px` (top-left origin) into the canvas at (x, y), top row first. */
    void read_back(const wf::framebuffer_t& fb, wlr_box px, bool upside_down, int x, int y);

    wf::output_t *output;
    host_t& host;
    wf::effect_hook_t pre_hook, overlay_hook, post_hook;
    /** The library's canvas: pixel (0, 0) is global (0, 0); only the damage is filled. */
    std::vector<uint32_t> canvas;
    int canvas_width = 0, canvas_height = 0;
    /** The damage's pixels as OpenGL reads and takes them (RGBA, bottom row first). */
    std::vector<uint8_t> rgba;
    GLuint texture = 0;
    /** Where the last three frames drew the pointer (output-local). */
    std::deque<wlr_box> drawn;
};
}
