// The host's surfaces: where each is, and its commits (watches.hpp).
#include <algorithm>
#include <cstring>

#include <wayfire/output.hpp>
#include <wayfire/view.hpp>
#include <wayfire/workspace-manager.hpp>

#include "host.hpp"
#include "watches.hpp"

namespace lodestone_wayfire
{
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
    commit_counts.erase(surface);
    surfaces.erase(surface);
}

void host_t::surface_committed(wlr_surface *surface)
{
    commit_counts[surface]++;
    if (server)
    {
        lodestone_pointer_server_surface_committed(server, surface->resource);
    }
}

void host_t::client_gone(wl_client *client)
{
    clients.erase(client);
}

}
