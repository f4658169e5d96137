/*
 * Who committed what: Wayfire 0.7.4 gives plugins no compositor-wide commit signal, so the
 * host follows every client's wl_surface resources itself (surfaces.cpp).
 */
#pragma once

#include <cstring>
#include <vector>

#include "host.hpp"

namespace lodestone_wayfire
{
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

}
