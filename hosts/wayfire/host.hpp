/*
 * The compositor-wide half of the Lodestone plugin for Wayfire 0.7.4: one engine and one
 * adaptive_pointer_manager_v1 global for the whole compositor (Wayfire instantiates plugins
 * per output; wf::singleton_plugin_t shares this between them).
 *
 * It follows Wayfire's input signals into the engine, reports surface commits and layout
 * changes to the library's server helper, steps the engine and damages the outputs the
 * pointer touches, and sends clients the pointer at the presentation's logical position
 * (magnetism). Drawing is per output: output-painter.hpp.
 */
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <wayfire/core.hpp>
#include <wayfire/object.hpp>
#include <wayfire/output.hpp>
#include <wayfire/nonstd/wlroots-full.hpp>
#include <wayfire/option-wrapper.hpp>
#include <wayfire/util.hpp>
#include <wayfire/view.hpp>

#include <lodestone-pointer.h>

namespace lodestone_wayfire
{
/** Seconds on CLOCK_MONOTONIC: the engine's clock. */
double now();

class surface_watch;
class client_watch;

class host_t
{
  public:
    host_t();
    ~host_t();
    host_t(const host_t&) = delete;
    host_t& operator =(const host_t&) = delete;

    /** An output's plugin instance started or stopped: it is damaged and redrawn with the pointer. */
    void add_output(wf::output_t *output);
    void remove_output(wf::output_t *output);

    /** Steps the engine to now (never backwards), sends the regions' events, damages
     *  every output the pointer was or is on and sends clients the logical position. */
    void step();

    /** Whether the painters draw the adaptive pointer (not the client's own cursor). */
    bool draws_pointer() const
    {
        return !host_cursor_shown;
    }

    /** The last stepped frame, for the painters. */
    const lodestone_pointer_presentation& presentation() const
    {
        return frame;
    }

    lodestone_pointer_engine *engine_handle() const
    {
        return engine;
    }

    /** Where a wl_surface's top-left corner is (global logical) and its window's place in
     *  the stack; false when it is not shown (the server helper's surface_position). */
    bool surface_position(wl_resource *surface, double *x, double *y, int32_t *layer);

    /** A wl_surface of some client was created (client_watch): its commits are followed. */
    void watch_surface(wlr_surface *surface);
    void surface_gone(wlr_surface *surface);
    void surface_committed(wlr_surface *surface);
    void client_gone(wl_client *client);

    /** The presentation's damage on an output (output-local, rounded out by a pixel). */
    wlr_box pointer_box(wf::output_t *output) const;

  private:
    /** wayfire.ini's [lodestone] section (lodestone.xml), applied now and when it changes. */
    void apply_options();
    /** Loaded when Wayfire knows the options (lodestone.xml in its metadata folders); the
     *  library's defaults otherwise (a wrapper throws for an option Wayfire does not know). */
    void load_options();
    bool options_loaded = false;
    wf::option_wrapper_t<double> size;
    wf::option_wrapper_t<bool> magnetism, auto_hide, reduce_motion, increase_contrast;
    wf::option_wrapper_t<std::string> legacy_apps;

    /** The legacy-app adapter: windows, the window under the pointer, the client's cursor. */
    void report_windows();
    void follow_pointer_window();
    void cursor_requested(wlr_seat_pointer_request_set_cursor_event *event);
    void cursor_committed();
    void show_source();
    /** The adapter's window pixels (lodestone_pointer_window_pixels_fn): the window's
     *  surface read back once per commit (surface-pixels.hpp). */
    bool window_pixels(uint64_t window, lodestone_pointer_window_pixels *out);
    struct pixels_copy
    {
        std::vector<uint32_t> argb;
        int32_t width = 0, height = 0;
        uint64_t commit = 0;
    };
    std::unordered_map<uint64_t, pixels_copy> pixel_copies;
    /** Commits of each watched surface, for the copies. */
    std::unordered_map<wlr_surface*, uint64_t> commit_counts;
    uint64_t window_id(wayfire_view view) const;
    void update_bounds();
    void follow_device();
    void send_logical_motion();
    void arm_deadline();
    void damage_outputs(double x, double y, double width, double height);

    lodestone_pointer_engine *engine = nullptr;
    lodestone_pointer_server *server = nullptr;
    lodestone_pointer_adapter *adapter = nullptr;
    /** The windows told to the adapter, and the one under the pointer. */
    std::vector<uint64_t> windows;
    uint64_t pointer_window = 0;
    /** The cursor surface the client under the pointer set, and its hotspot. */
    wlr_surface *cursor_surface = nullptr;
    int32_t hotspot_x = 0, hotspot_y = 0;
    wf::wl_listener_wrapper on_set_cursor, on_cursor_commit, on_cursor_destroy;
    /** Wayfire's own cursor shows (the client's image) instead of the adaptive pointer. */
    bool host_cursor_shown = false;
    /** The adapter's replies come while the loop dispatches: polled, and stepped when they changed something. */
    wf::wl_timer adapter_poll;
    lodestone_pointer_presentation frame{};
    double last_time = 0;
    /** LODESTONE_WAYFIRE_TRACE: the pointer's shape, effect and target on stderr as they change (tests). */
    bool trace = false;
    std::unordered_map<uint64_t, std::string> traced_windows;
    uint32_t traced_elements = 0;
    /** The logical position last sent to the focused client. */
    double sent_x = -1e9, sent_y = -1e9;

    std::vector<wf::output_t*> outputs;
    std::unordered_map<wlr_surface*, std::unique_ptr<surface_watch>> surfaces;
    std::unordered_map<wl_client*, std::unique_ptr<client_watch>> clients;
    /** wl_display's client_created, in a struct of its own for wl_container_of. */
    struct client_listener
    {
        wl_listener listener;
        host_t *host;
    } client_created;
    wf::wl_timer deadline_timer;
    wf::wl_idle_call deadline_step;

    wf::signal_connection_t on_motion, on_motion_absolute, on_button, on_key, on_layout,
        on_output_layout;
    wf::signal_connection_t on_focus, on_axis;
};
}
