#include "host.hpp"
#include "watches.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <drm_fourcc.h>
#include <linux/input-event-codes.h>
#include <wayfire/output-layout.hpp>
#include <wayfire/render-manager.hpp>
#include <wayfire/signal-definitions.hpp>
#include <wayfire/view.hpp>
#include <wayfire/workspace-manager.hpp>
#include <wayfire/util/log.hpp>

namespace lodestone_wayfire
{
double now()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

host_t::host_t()
{
    auto& core = wf::get_core();
    // The engine starts on a placeholder rectangle: the outputs' union comes with add_output.
    engine = lodestone_pointer_engine_create(0, 0, 1, 1);
    lodestone_pointer_server_callbacks callbacks{};
    callbacks.size = sizeof callbacks;
    callbacks.surface_position = [] (void *data, wl_resource *surface, double *x, double *y,
                                     int32_t *layer)
    {
        return static_cast<host_t*>(data)->surface_position(surface, x, y, layer);
    };
    callbacks.subsurface_parent = [] (void*, wl_resource *resource) -> wl_resource*
    {
        auto surface = wlr_surface_from_resource(resource);
        if (!wlr_surface_is_subsurface(surface))
        {
            return nullptr;
        }

        auto subsurface = wlr_subsurface_from_wlr_surface(surface);
        return (subsurface && subsurface->parent) ? subsurface->parent->resource : nullptr;
    };
    server = lodestone_pointer_server_create(core.display, engine, &callbacks, this);
    if (!server)
    {
        LOGE("lodestone: could not offer adaptive_pointer_manager_v1");
    }

    trace = std::getenv("LODESTONE_WAYFIRE_TRACE") != nullptr;
    // Apps that declare no regions: cursor names and images, and AT-SPI geometry.
    adapter = lodestone_pointer_adapter_create(engine, core.ev_loop, server);
    // The windows' pixels: controls grow to their drawn outlines, terminals' rows are measured.
    lodestone_pointer_adapter_set_window_pixels(adapter, [] (void *data, uint64_t window,
                                                             lodestone_pointer_window_pixels *out)
    {
        return static_cast<host_t*>(data)->window_pixels(window, out);
    }, this);
    adapter_poll.set_timeout(50, [this] ()
    {
        if (lodestone_pointer_adapter_changed(adapter))
        {
            step();
        }

        return true;
    });
    on_set_cursor.set_callback([this] (void *data)
    {
        cursor_requested(static_cast<wlr_seat_pointer_request_set_cursor_event*>(data));
    });
    on_set_cursor.connect(&core.get_current_seat()->events.request_set_cursor);
    on_cursor_commit.set_callback([this] (void*) { cursor_committed(); });
    on_cursor_destroy.set_callback([this] (void*)
    {
        on_cursor_commit.disconnect();
        on_cursor_destroy.disconnect();
        cursor_surface = nullptr;
    });
    on_focus.set_callback([this] (wf::signal_data_t *data)
    {
        auto view = static_cast<wf::keyboard_focus_changed_signal*>(data)->view;
        if (view)
        {
            report_windows();
            lodestone_pointer_adapter_window_activated(adapter, window_id(view));
        }
    });
    core.connect_signal("keyboard-focus-changed", &on_focus);
    on_axis.set_callback([this] (wf::signal_data_t*)
    {
        if (pointer_window)
        {
            lodestone_pointer_adapter_scrolled(adapter, pointer_window);
        }
    });
    core.connect_signal("pointer_axis", &on_axis);

    load_options();
    apply_options();

    // Every client's surfaces: those of clients already connected, and of every new one.
    client_created.host = this;
    client_created.listener.notify = [] (wl_listener *l, void *data)
    {
        client_listener *self = wl_container_of(l, self, listener);
        auto client = static_cast<wl_client*>(data);
        self->host->clients[client] = std::make_unique<client_watch>(self->host, client);
    };
    wl_display_add_client_created_listener(core.display, &client_created.listener);
    wl_client *client;
    wl_client_for_each(client, wl_display_get_client_list(core.display))
    {
        clients[client] = std::make_unique<client_watch>(this, client);
        wl_client_for_each_resource(client, [] (wl_resource *resource, void *data)
        {
            if ((std::strcmp(wl_resource_get_class(resource), "wl_surface") == 0) &&
                wl_resource_get_user_data(resource))
            {
                static_cast<host_t*>(data)->watch_surface(wlr_surface_from_resource(resource));
            }

            return WL_ITERATOR_CONTINUE;
        }, this);
    }

    // Input: after Wayfire has moved its cursor (the device's position, clamped to the
    // outputs), so the engine follows what Wayfire did.
    on_motion.set_callback([this] (wf::signal_data_t*) { follow_device(); });
    on_motion_absolute.set_callback([this] (wf::signal_data_t*) { follow_device(); });
    on_button.set_callback([this] (wf::signal_data_t *data)
    {
        auto ev = static_cast<wf::input_event_signal<wlr_event_pointer_button>*>(data)->event;
        if (ev->button == BTN_LEFT)
        {
            lodestone_pointer_engine_button(engine, std::max(now(), last_time),
                ev->state == WLR_BUTTON_PRESSED);
            step();
        }
    });
    on_key.set_callback([this] (wf::signal_data_t *data)
    {
        auto ev = static_cast<wf::input_event_signal<wlr_event_keyboard_key>*>(data)->event;
        // A key that types: not a modifier, and no shortcut modifier held.
        static const uint32_t modifiers[] = {KEY_LEFTSHIFT, KEY_RIGHTSHIFT, KEY_LEFTCTRL,
            KEY_RIGHTCTRL, KEY_LEFTALT, KEY_RIGHTALT, KEY_LEFTMETA, KEY_RIGHTMETA, KEY_CAPSLOCK};
        bool is_modifier = std::find(std::begin(modifiers), std::end(modifiers), ev->keycode) !=
            std::end(modifiers);
        bool shortcut = wf::get_core().get_keyboard_modifiers() &
            (WLR_MODIFIER_CTRL | WLR_MODIFIER_ALT | WLR_MODIFIER_LOGO);
        if (ev->state == WL_KEYBOARD_KEY_STATE_PRESSED)
        {
            lodestone_pointer_adapter_key_pressed(adapter);
        }

        if ((ev->state == WL_KEYBOARD_KEY_STATE_PRESSED) && !is_modifier && !shortcut)
        {
            lodestone_pointer_engine_key_typed(engine, std::max(now(), last_time));
            step();
        }
    });
    core.connect_signal("pointer_motion_post", &on_motion);
    core.connect_signal("pointer_motion_absolute_post", &on_motion_absolute);
    core.connect_signal("pointer_button", &on_button);
    core.connect_signal("keyboard_key", &on_key);

    // Windows mapped, unmapped, moved or restacked: the regions are placed again.
    on_layout.set_callback([this] (wf::signal_data_t*)
    {
        if (server)
        {
            lodestone_pointer_server_layout_changed(server);
        }

        report_windows();
    });
    core.connect_signal("view-geometry-changed", &on_layout);
    core.connect_signal("output-stack-order-changed", &on_layout);
    core.connect_signal("surface-mapped", &on_layout);
    core.connect_signal("surface-unmapped", &on_layout);
    on_output_layout.set_callback([this] (wf::signal_data_t*) { update_bounds(); });
    core.output_layout->connect_signal("configuration-changed", &on_output_layout);

    // The library draws the pointer: Wayfire's own cursor stays hidden while the plugin runs.
    core.hide_cursor();
}

host_t::~host_t()
{
    deadline_timer.disconnect();
    deadline_step.disconnect();
    adapter_poll.disconnect();
    on_set_cursor.disconnect();
    on_cursor_commit.disconnect();
    on_cursor_destroy.disconnect();
    if (!host_cursor_shown)
    {
        wf::get_core().unhide_cursor();
    }

    lodestone_pointer_adapter_destroy(adapter);
    lodestone_pointer_server_destroy(server);
    lodestone_pointer_engine_destroy(engine);
    wl_list_remove(&client_created.listener.link);
    surfaces.clear();
    clients.clear();
}

void host_t::add_output(wf::output_t *output)
{
    outputs.push_back(output);
    update_bounds();
}

void host_t::remove_output(wf::output_t *output)
{
    outputs.erase(std::remove(outputs.begin(), outputs.end(), output), outputs.end());
    update_bounds();
}

void host_t::update_bounds()
{
    if (outputs.empty())
    {
        return;
    }

    wf::geometry_t u = outputs.front()->get_layout_geometry();
    int x1 = u.x, y1 = u.y, x2 = u.x + u.width, y2 = u.y + u.height;
    for (auto output : outputs)
    {
        auto g = output->get_layout_geometry();
        x1 = std::min(x1, g.x);
        y1 = std::min(y1, g.y);
        x2 = std::max(x2, g.x + g.width);
        y2 = std::max(y2, g.y + g.height);
    }

    lodestone_pointer_engine_set_output_bounds(engine, x1, y1, x2 - x1, y2 - y1);
    auto cursor = wf::get_core().get_cursor_position();
    if (!std::isnan(cursor.x))
    {
        lodestone_pointer_engine_warp(engine, std::max(now(), last_time), cursor.x, cursor.y);
    }

    step();
}

void host_t::follow_device()
{
    auto cursor = wf::get_core().get_cursor_position();
    if (std::isnan(cursor.x))
    {
        return;
    }

    lodestone_pointer_engine_motion(engine, std::max(now(), last_time), cursor.x, cursor.y);
    // Wayfire has just sent the focused client this position itself.
    sent_x = cursor.x;
    sent_y = cursor.y;
    follow_pointer_window();
    step();
}

void host_t::step()
{
    last_time = std::max(now(), last_time);
    lodestone_pointer_presentation next{};
    next.size = sizeof next;
    lodestone_pointer_engine_step(engine, last_time, &next);
    if (server)
    {
        lodestone_pointer_server_send_events(server);
    }

    // Damage only what changed: a still pointer costs no frames.
    lodestone_pointer_presentation previous = frame, compared = next;
    previous.time = compared.time = 0;
    bool changed = std::memcmp(&previous, &compared, sizeof compared) != 0;
    if (trace && ((next.shape_kind != frame.shape_kind) || (next.effect_kind != frame.effect_kind) ||
                  (next.targeted != frame.targeted) || (next.target_region != frame.target_region)))
    {
        // Whose region: the server helper's ids have the top bit set, the adapter's the top two.
        const char *source = !next.targeted ? "none" :
            ((next.target_region >> 62) == 3) ? "accessibility" :
            ((next.target_region >> 63) == 1) ? "protocol" : "host";
        std::fprintf(stderr, "lodestone: pointer shape %u effect %u region %s %#llx at %.0f,%.0f size %.0fx%.0f\n",
            next.shape_kind, next.effect_kind, source, (unsigned long long)next.target_region,
            next.x, next.y, next.width, next.height);
    }

    frame = next;
    lodestone_pointer_adapter_stepped(adapter, last_time);
    if (trace && pointer_window)
    {
        uint32_t elements = lodestone_pointer_adapter_element_count(adapter, pointer_window);
        if (elements != traced_elements)
        {
            traced_elements = elements;
            std::fprintf(stderr, "lodestone: window %llu has %u accessible elements\n",
                (unsigned long long)pointer_window, elements);
        }
    }
    show_source();
    if (changed)
    {
        damage_outputs(frame.damage_x, frame.damage_y, frame.damage_width, frame.damage_height);
    }

    send_logical_motion();
    if (frame.animating)
    {
        for (auto output : outputs)
        {
            output->render->schedule_redraw();
        }
    }

    arm_deadline();
}

void host_t::damage_outputs(double x, double y, double width, double height)
{
    for (auto output : outputs)
    {
        auto og = output->get_layout_geometry();
        wlr_box box{int(std::floor(x)) - og.x - 1, int(std::floor(y)) - og.y - 1,
            int(std::ceil(width)) + 3, int(std::ceil(height)) + 3};
        output->render->damage(box);
    }
}

wlr_box host_t::pointer_box(wf::output_t *output) const
{
    auto og = output->get_layout_geometry();
    return wlr_box{int(std::floor(frame.damage_x)) - og.x - 1,
        int(std::floor(frame.damage_y)) - og.y - 1,
        int(std::ceil(frame.damage_width)) + 3, int(std::ceil(frame.damage_height)) + 3};
}

void host_t::send_logical_motion()
{
    if ((std::fabs(frame.logical_x - sent_x) < 0.01) && (std::fabs(frame.logical_y - sent_y) < 0.01))
    {
        return;
    }

    wlr_seat *seat = wf::get_core().get_current_seat();
    wlr_surface *focus = seat->pointer_state.focused_surface;
    double x, y;
    int32_t layer;
    if (!focus || !surface_position(focus->resource, &x, &y, &layer))
    {
        return;
    }

    sent_x = frame.logical_x;
    sent_y = frame.logical_y;
    wlr_seat_pointer_notify_motion(seat, uint32_t(last_time * 1000), sent_x - x, sent_y - y);
    wlr_seat_pointer_notify_frame(seat);
}

void host_t::arm_deadline()
{
    double due;
    if (!lodestone_pointer_engine_next_deadline(engine, &due))
    {
        deadline_timer.disconnect();
        return;
    }

    double ms = std::max(1.0, std::ceil((due - now()) * 1000));
    deadline_timer.disconnect();
    // step() re-arms this timer: it runs once the timer's own callback has returned.
    deadline_timer.set_timeout(uint32_t(std::min(ms, 60000.0)), [this] ()
    {
        deadline_step.run_once([this] () { step(); });
        return false;
    });
}

}
