/*
 * lodestone: the iPadOS-style adaptive pointer of liblodestone-pointer in Wayfire 0.7.4
 * (`[core] plugins = ... lodestone`). One host for the compositor (host.hpp: the engine,
 * adaptive_pointer_manager_v1, input, commits), one painter per output (output-painter.hpp).
 */
#include <memory>

#include <wayfire/plugin.hpp>
#include <wayfire/singleton-plugin.hpp>

#include "host.hpp"
#include "output-painter.hpp"

class lodestone_plugin_t : public wf::singleton_plugin_t<lodestone_wayfire::host_t>
{
  public:
    void init() override
    {
        singleton_plugin_t::init();
        get_instance().add_output(output);
        painter = std::make_unique<lodestone_wayfire::output_painter_t>(output, get_instance());
    }

    void fini() override
    {
        painter.reset();
        get_instance().remove_output(output);
        singleton_plugin_t::fini();
    }

  private:
    std::unique_ptr<lodestone_wayfire::output_painter_t> painter;
};

DECLARE_WAYFIRE_PLUGIN(lodestone_plugin_t);
