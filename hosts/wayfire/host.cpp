#include "host.hpp"

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

/** One wl_surface's commit and destroy listeners. Wayfire 0.7.4 gives plugins no
 *  compositor-wide commit signal, so the host listens to each wlr_surface itself. */
class surface_watch
{
  public:
    surface_watch(host_t *host, wlr_surface *surface) : host(host), surface(surface)
    {
        commit.notify = [] (wl_listener *l, void*)
        {
            surface_watch *self = wl_container_of(l, self, commit);
            self->host->surface_committed(self->surface);
        };
        destroy.notify = [] (wl_listener *l, void*)
        {
            surface_watch *self = wl_container_of(l, self, destroy);
            self->host->surface_gone(self->surface); // frees self
        };
        wl_signal_add(&surface->events.commit, &commit);
        wl_signal_add(&surface->events.destroy, &destroy);
    }

    ~surface_watch()
    {
        wl_list_remove(&commit.link);
        wl_list_remove(&destroy.link);
    }

  private:
    host_t *host;
    wlr_surface *surface;
    wl_listener commit, destroy;
};

/** A client's new wl_surface resources. wl_resource_create announces a resource before
 *  wlroots has made its wlr_surface, so the ids wait for the next idle of the loop, when
 *  the request that created them has returned. */
class client_watch
{
  public:
    client_watch(host_t *host, wl_client *client) : host(host), client(client)
    {
        created.notify = [] (wl_listener *l, void *data)
        {
            client_watch *self = wl_container_of(l, self, created);
            self->resource_created(static_cast<wl_resource*>(data));
        };
        destroyed.notify = [] (wl_listener *l, void*)
        {
            client_watch *self = wl_container_of(l, self, destroyed);
            self->host->client_gone(self->client); // frees self
        };
        wl_client_add_resource_created_listener(client, &created);
        wl_client_add_destroy_listener(client, &destroyed);
    }

    ~client_watch()
    {
        if (idle)
        {
            wl_event_source_remove(idle);
        }

        wl_list_remove(&created.link);
        wl_list_remove(&destroyed.link);
    }

  private:
    void resource_created(wl_resource *resource)
    {
        if (std::strcmp(wl_resource_get_class(resource), "wl_surface") != 0)
        {
            return;
        }

        pending.push_back(wl_resource_get_id(resource));
        if (!idle)
        {
            idle = wl_event_loop_add_idle(wf::get_core().ev_loop, [] (void *data)
            {
                static_cast<client_watch*>(data)->flush();
            }, this);
        }
    }

    void flush()
    {
        idle = nullptr;
        for (uint32_t id : pending)
        {
            wl_resource *resource = wl_client_get_object(client, id);
            if (resource && (std::strcmp(wl_resource_get_class(resource), "wl_surface") == 0) &&
                wl_resource_get_user_data(resource))
            {
                host->watch_surface(wlr_surface_from_resource(resource));
            }
        }

        pending.clear();
    }

    host_t *host;
    wl_client *client;
    wl_listener created, destroyed;
    std::vector<uint32_t> pending;
    wl_event_source *idle = nullptr;
};

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

    apply_options();
    for (auto option : std::initializer_list<wf::base_option_wrapper_t<bool>*>{&magnetism, &auto_hide,
        &reduce_motion, &increase_contrast})
    {
        option->set_callback([this] () { apply_options(); });
    }

    size.set_callback([this] () { apply_options(); });
    legacy_apps.set_callback([this] () { apply_options(); });

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

bool host_t::surface_position(wl_resource *resource, double *x, double *y, int32_t *layer)
{
    auto surface = wlr_surface_from_resource(resource);
    auto root    = wlr_surface_get_root_surface(surface);
    wayfire_view view = wf::wl_surface_to_wayfire_view(root->resource);
    if (!view || !view->is_mapped() || view->minimized || !view->get_output())
    {
        return false;
    }

    auto output = view->get_output();
    auto origin = output->get_layout_geometry();
    auto frame  = view->get_output_geometry();
    for (auto& child : view->enumerate_surfaces({frame.x, frame.y}))
    {
        if (child.surface->get_wlr_surface() != surface)
        {
            continue;
        }

        *x = origin.x + child.position.x;
        *y = origin.y + child.position.y;
        // get_views_in_layer lists the topmost view first.
        auto stack = output->workspace->get_views_in_layer(wf::ALL_LAYERS);
        auto found = std::find(stack.begin(), stack.end(), view);
        *layer = found == stack.end() ? 0 : int32_t(stack.end() - found);
        return true;
    }

    return false;
}

void host_t::watch_surface(wlr_surface *surface)
{
    if (!surfaces.count(surface))
    {
        surfaces[surface] = std::make_unique<surface_watch>(this, surface);
    }
}

void host_t::surface_gone(wlr_surface *surface)
{
    surfaces.erase(surface);
}

void host_t::surface_committed(wlr_surface *surface)
{
    if (server)
    {
        lodestone_pointer_server_surface_committed(server, surface->resource);
    }
}

void host_t::client_gone(wl_client *client)
{
    clients.erase(client);
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
    // The image's pixels: wl_shm buffers only (a cursor is never anything else in practice).
    if (!cursor_surface || !cursor_surface->buffer || !cursor_surface->buffer->source)
    {
        return;
    }

    void *data;
    uint32_t format;
    size_t stride;
    wlr_buffer *buffer = cursor_surface->buffer->source;
    if (!wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride))
    {
        return;
    }

    if ((format == DRM_FORMAT_ARGB8888) || (format == DRM_FORMAT_XRGB8888))
    {
        int32_t scale = std::max(1, cursor_surface->current.scale);
        lodestone_pointer_adapter_cursor_image(adapter, static_cast<const uint32_t*>(data),
            buffer->width, buffer->height, int32_t(stride), scale, hotspot_x * scale, hotspot_y * scale);
    }

    wlr_buffer_end_data_ptr_access(buffer);
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

void host_t::apply_options()
{
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
}
