// The host's side of the legacy-app adapter (lodestone_pointer_adapter_*): windows with their
// pids, the window under the pointer, the client's cursor image, and the [lodestone] options.
#include <algorithm>
#include <cstdio>

#include <wayfire/output.hpp>
#include <wayfire/render-manager.hpp>
#include <wayfire/view.hpp>
#include <wayfire/workspace-manager.hpp>
#include <wayfire/core.hpp>
#include <wayfire/util/log.hpp>

#include "host.hpp"
#include "surface-pixels.hpp"

namespace lodestone_wayfire
{
uint64_t host_t::window_id(wayfire_view view) const
{
    // Wayfire's object ids start at 0; the adapter's window 0 means none.
    return uint64_t(view->get_id()) + 1;
}

void host_t::report_windows()
{
    std::vector<uint64_t> seen;
    for (auto view : wf::get_core().get_all_views())
    {
        if (!view->is_mapped() || view->minimized || !view->get_output() || !view->get_wlr_surface() ||
            (view->role == wf::VIEW_ROLE_DESKTOP_ENVIRONMENT))
        {
            continue;
        }

        pid_t pid = 0;
        if (auto client = view->get_client())
        {
            wl_client_get_credentials(client, &pid, nullptr, nullptr);
        }

        auto output = view->get_output();
        auto origin = output->get_layout_geometry();
        auto content = view->get_wm_geometry();
        auto stack   = output->workspace->get_views_in_layer(wf::ALL_LAYERS);
        auto found   = std::find(stack.begin(), stack.end(), view);
        int32_t layer = found == stack.end() ? 0 : int32_t(stack.end() - found);
        uint64_t id   = window_id(view);
        lodestone_pointer_adapter_window_configured(adapter, id, pid, origin.x + content.x,
            origin.y + content.y, content.width, content.height, layer, view->get_wlr_surface()->resource);
        seen.push_back(id);
        if (trace)
        {
            char line[160];
            std::snprintf(line, sizeof line, "lodestone: window %llu pid %d at %d,%d %dx%d",
                (unsigned long long)id, int(pid), origin.x + content.x, origin.y + content.y,
                content.width, content.height);
            if (traced_windows[id] != line)
            {
                traced_windows[id] = line;
                std::fprintf(stderr, "%s\n", line);
            }
        }
    }

    for (uint64_t id : windows)
    {
        if (std::find(seen.begin(), seen.end(), id) == seen.end())
        {
            lodestone_pointer_adapter_window_unmapped(adapter, id);
            pixel_copies.erase(id);
            if (pointer_window == id)
            {
                pointer_window = 0;
            }
        }
    }

    windows = seen;
}

void host_t::follow_pointer_window()
{
    auto view = wf::get_core().get_cursor_focus_view();
    uint64_t id = view ? window_id(view) : 0;
    if (id && (std::find(windows.begin(), windows.end(), id) == windows.end()))
    {
        report_windows();
    }

    if (id != pointer_window)
    {
        pointer_window = id;
        lodestone_pointer_adapter_pointer_over(adapter, id);
    }
}

void host_t::cursor_requested(wlr_seat_pointer_request_set_cursor_event *event)
{
    // Only the client under the pointer sets the cursor (as Wayfire itself checks).
    auto seat = wf::get_core().get_current_seat();
    if (event->seat_client != seat->pointer_state.focused_client)
    {
        return;
    }

    on_cursor_commit.disconnect();
    on_cursor_destroy.disconnect();
    cursor_surface = event->surface;
    hotspot_x = event->hotspot_x;
    hotspot_y = event->hotspot_y;
    if (!cursor_surface)
    {
        if (trace)
        {
            std::fprintf(stderr, "lodestone: cursor hidden\n");
        }

        lodestone_pointer_adapter_cursor_hidden(adapter);
    } else
    {
        on_cursor_commit.connect(&cursor_surface->events.commit);
        on_cursor_destroy.connect(&cursor_surface->events.destroy);
        cursor_committed();
    }

    step();
}

void host_t::cursor_committed()
{
    std::vector<uint32_t> argb;
    int32_t width, height;
    if (!cursor_surface || !read_surface_pixels(cursor_surface, argb, width, height))
    {
        return;
    }

    int32_t scale = std::max(1, cursor_surface->current.scale);
    bool known = lodestone_pointer_adapter_cursor_image(adapter, argb.data(), width, height, width * 4,
        scale, hotspot_x * scale, hotspot_y * scale);
    if (trace)
    {
        std::fprintf(stderr, "lodestone: cursor image %dx%d scale %d hotspot %d,%d: %s\n", width, height,
            scale, hotspot_x, hotspot_y, known ? "a theme cursor" : "the client's own");
    }

    step();
}

void host_t::show_source()
{
    // The client's own image (an image that is no theme cursor, or a theme cursor with no
    // adaptive form): Wayfire's cursor shows it; otherwise the library's pointer.
    bool host_cursor = lodestone_pointer_adapter_pointer_source(adapter) != LODESTONE_POINTER_SOURCE_ADAPTIVE;
    if (host_cursor == host_cursor_shown)
    {
        return;
    }

    host_cursor_shown = host_cursor;
    if (host_cursor)
    {
        wf::get_core().unhide_cursor();
    } else
    {
        wf::get_core().hide_cursor();
    }

    damage_outputs(frame.damage_x, frame.damage_y, frame.damage_width, frame.damage_height);
}

void host_t::load_options()
{
    if (!wf::get_core().config.get_option("lodestone/size"))
    {
        LOGE("lodestone: Wayfire has no lodestone.xml among its metadata (WAYFIRE_PLUGIN_XML_PATH): "
             "the [lodestone] options are not read");
        return;
    }

    size.load_option("lodestone/size");
    magnetism.load_option("lodestone/magnetism");
    auto_hide.load_option("lodestone/auto_hide");
    reduce_motion.load_option("lodestone/reduce_motion");
    increase_contrast.load_option("lodestone/increase_contrast");
    legacy_apps.load_option("lodestone/legacy_apps");
    options_loaded = true;
    for (auto option : std::initializer_list<wf::base_option_wrapper_t<bool>*>{&magnetism, &auto_hide,
        &reduce_motion, &increase_contrast})
    {
        option->set_callback([this] () { apply_options(); });
    }

    size.set_callback([this] () { apply_options(); });
    legacy_apps.set_callback([this] () { apply_options(); });
}

void host_t::apply_options()
{
    if (!options_loaded)
    {
        return;
    }

    lodestone_pointer_settings settings;
    lodestone_pointer_settings_init(&settings, sizeof settings);
    settings.size_multiplier   = std::clamp(double(size), 1.0, 4.0);
    settings.magnetism         = magnetism;
    settings.auto_hide         = auto_hide;
    settings.reduce_motion     = reduce_motion;
    settings.increase_contrast = increase_contrast;
    if (!lodestone_pointer_engine_set_settings(engine, &settings))
    {
        LOGE("lodestone: the pointer settings were refused");
    }

    std::string mode = legacy_apps;
    uint32_t legacy = mode == "off" ? LODESTONE_POINTER_LEGACY_APPS_OFF :
        mode == "shapes" ? LODESTONE_POINTER_LEGACY_APPS_SHAPES : LODESTONE_POINTER_LEGACY_APPS_ADAPTIVE;
    if ((mode != "adaptive") && (mode != "shapes") && (mode != "off"))
    {
        LOGE("lodestone: legacy_apps is adaptive, shapes or off, not ", mode);
    }

    lodestone_pointer_adapter_set_legacy_apps(adapter, legacy);
}

bool host_t::window_pixels(uint64_t window, lodestone_pointer_window_pixels *out)
{
    wayfire_view view;
    for (auto candidate : wf::get_core().get_all_views())
    {
        if (window_id(candidate) == window)
        {
            view = candidate;
        }
    }

    wlr_surface *surface = view ? view->get_wlr_surface() : nullptr;
    if (!surface)
    {
        return false;
    }

    // Read once for each commit: the adapter keeps its copy while the count is the same.
    auto& copy = pixel_copies[window];
    uint64_t commit = commit_counts[surface];
    if (copy.argb.empty() || (copy.commit != commit))
    {
        if (!read_surface_pixels(surface, copy.argb, copy.width, copy.height))
        {
            pixel_copies.erase(window);
            return false;
        }

        copy.commit = commit;
    }

    auto content = view->get_wm_geometry(), frame = view->get_output_geometry();
    out->argb   = copy.argb.data();
    out->width  = copy.width;
    out->height = copy.height;
    out->stride = copy.width * 4;
    out->scale  = std::max(1, surface->current.scale);
    out->geometry_x = content.x - frame.x;
    out->geometry_y = content.y - frame.y;
    out->commit = copy.commit;
    return true;
}
}
