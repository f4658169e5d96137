#include "output-painter.hpp"

#include <wayfire/output.hpp>
#include <cmath>

namespace lodestone_wayfire
{
output_painter_t::output_painter_t(wf::output_t *output, host_t& host) : output(output), host(host)
{
    pre_hook     = [this] () { frame_started(); };
    overlay_hook = [this] () { draw(); };
    // An animation goes on: ask for the next frame once this one is out.
    post_hook = [this] ()
    {
        if (this->host.presentation().animating)
        {
            this->output->render->schedule_redraw();
        }
    };
    output->render->add_effect(&pre_hook, wf::OUTPUT_EFFECT_PRE);
    output->render->add_effect(&overlay_hook, wf::OUTPUT_EFFECT_OVERLAY);
    output->render->add_effect(&post_hook, wf::OUTPUT_EFFECT_POST);
    output->render->damage_whole();
}

output_painter_t::~output_painter_t()
{
    output->render->rem_effect(&pre_hook);
    output->render->rem_effect(&overlay_hook);
    output->render->rem_effect(&post_hook);
    if (texture)
    {
        OpenGL::render_begin();
        GL_CALL(glDeleteTextures(1, &texture));
        OpenGL::render_end();
    }

    output->render->damage_whole();
}

void output_painter_t::frame_started()
{
    host.step();
    if (output->render->get_scheduled_damage().empty())
    {
        return;
    }

    // Everything under the pointer is composed afresh: where it is now, and where the last
    // frames drew it (a buffer comes back a few frames old, the pointer still on it).
    output->render->damage(host.pointer_box(output));
    for (auto& box : drawn)
    {
        output->render->damage(box);
    }
}

void output_painter_t::draw()
{
    if (!host.draws_pointer())
    {
        return;
    }

    auto fb = output->render->get_target_framebuffer();
    // An output that is not rotated: Wayfire renders it upside down (OpenGL's rows run
    // bottom to top, the buffer's top to bottom), as FLIPPED_180. Rotated outputs are not
    // drawn yet (docs/wayfire.md).
    bool upside_down = fb.wl_transform == WL_OUTPUT_TRANSFORM_FLIPPED_180;
    if (!upside_down && (fb.wl_transform != WL_OUTPUT_TRANSFORM_NORMAL))
    {
        return;
    }

    auto layout = output->get_layout_geometry();
    wlr_box local = host.pointer_box(output), whole{0, 0, layout.width, layout.height}, clip;
    if (!wlr_box_intersection(&clip, &local, &whole))
    {
        return;
    }

    // The damage in the framebuffer's own coordinates, then in its pixels (top-left origin).
    wlr_box box{clip.x + fb.geometry.x, clip.y + fb.geometry.y, clip.width, clip.height};
    wlr_box px = fb.framebuffer_box_from_geometry_box(box);
    px.width  = std::min(px.width, fb.viewport_width - px.x);
    px.height = std::min(px.height, fb.viewport_height - px.y);
    if ((px.width <= 0) || (px.height <= 0))
    {
        return;
    }

    // The same pixels on the library's canvas, whose rows run down the screen.
    int origin_x = int(std::lround((layout.x + clip.x) * fb.scale)),
        origin_y = int(std::lround((layout.y + clip.y) * fb.scale));
    int width = int(std::lround(layout.x * fb.scale)) + fb.viewport_width,
        height = int(std::lround(layout.y * fb.scale)) + fb.viewport_height;
    if ((width != canvas_width) || (height != canvas_height))
    {
        canvas.assign(size_t(width) * height, 0);
        canvas_width  = width;
        canvas_height = height;
    }

    OpenGL::render_begin(fb);
    // A lifted or hovered element is drawn from a snapshot of its pixels, which may reach
    // beyond this frame's damage: then the whole output is read, so that no pixel the
    // library reads is one it drew in an earlier frame.
    auto effect = host.presentation().effect_kind;
    bool whole_output = host.presentation().targeted && ((effect == LODESTONE_POINTER_EFFECT_KIND_LIFT) ||
        (effect == LODESTONE_POINTER_EFFECT_KIND_HOVER));
    read_back(fb, whole_output ? wlr_box{0, 0, fb.viewport_width, fb.viewport_height} : px, upside_down,
        whole_output ? int(std::lround(layout.x * fb.scale)) : origin_x,
        whole_output ? int(std::lround(layout.y * fb.scale)) : origin_y);

    lodestone_pointer_engine_draw(host.engine_handle(), canvas.data(), width, height, width * 4,
        fb.scale, origin_x, origin_y, px.width, px.height);
    // render_texture puts the texture's first row at the box's bottom.
    rgba.resize(size_t(px.width) * px.height * 4);
    for (int row = 0; row < px.height; row++)
    {
        uint8_t *dst = &rgba[size_t(px.height - 1 - row) * px.width * 4];
        const uint32_t *src = &canvas[size_t(origin_y + row) * width + origin_x];
        for (int col = 0; col < px.width; col++, dst += 4)
        {
            dst[0] = (src[col] >> 16) & 0xff;
            dst[1] = (src[col] >> 8) & 0xff;
            dst[2] = src[col] & 0xff;
            dst[3] = 0xff;
        }
    }

    if (!texture)
    {
        GL_CALL(glGenTextures(1, &texture));
    }

    GL_CALL(glBindTexture(GL_TEXTURE_2D, texture));
    GL_CALL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    GL_CALL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    GL_CALL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    GL_CALL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    GL_CALL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
    GL_CALL(glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, px.width, px.height, 0, GL_RGBA,
        GL_UNSIGNED_BYTE, rgba.data()));
    fb.logic_scissor(box);
    OpenGL::render_texture(wf::texture_t{texture}, fb, box, glm::vec4(1.0f), 0);
    OpenGL::render_end();
    drawn.push_back(clip);
    if (drawn.size() > 3)
    {
        drawn.pop_front();
    }
}

void output_painter_t::read_back(const wf::framebuffer_t& fb, wlr_box px, bool upside_down, int x, int y)
{
    rgba.resize(size_t(px.width) * px.height * 4);
    // Where the scissor would be (viewport_height - y - h: Wayfire's convention); its rows
    // run down the screen on an upside-down output, up it otherwise.
    GL_CALL(glReadPixels(px.x, fb.viewport_height - px.y - px.height, px.width, px.height,
        GL_RGBA, GL_UNSIGNED_BYTE, rgba.data()));
    for (int row = 0; row < px.height; row++)
    {
        const uint8_t *src = &rgba[size_t(upside_down ? row : px.height - 1 - row) * px.width * 4];
        uint32_t *dst = &canvas[size_t(y + row) * canvas_width + x];
        for (int col = 0; col < px.width; col++, src += 4)
        {
            // The composed frame is opaque, whatever its buffer's alpha says.
            dst[col] = 0xff000000u | (uint32_t(src[0]) << 16) | (uint32_t(src[1]) << 8) | src[2];
        }
    }
}
}
