#include "surface-pixels.hpp"

#include <wayfire/opengl.hpp>

namespace lodestone_wayfire
{
bool read_surface_pixels(wlr_surface *surface, std::vector<uint32_t>& argb, int32_t& width, int32_t& height)
{
    wlr_texture *texture = wlr_surface_get_texture(surface);
    if (!texture || !wlr_texture_is_gles2(texture))
    {
        return false;
    }

    wlr_gles2_texture_attribs attribs;
    wlr_gles2_texture_get_attribs(texture, &attribs);
    if (attribs.target != GL_TEXTURE_2D)
    {
        return false;
    }

    width  = int32_t(texture->width);
    height = int32_t(texture->height);
    std::vector<uint8_t> rgba(size_t(width) * height * 4);
    OpenGL::render_begin();
    GLuint framebuffer;
    GL_CALL(glGenFramebuffers(1, &framebuffer));
    GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, framebuffer));
    GL_CALL(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, attribs.tex, 0));
    bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (complete)
    {
        // The texture's rows are the buffer's, uploaded top row first.
        GL_CALL(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data()));
    }

    GL_CALL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    GL_CALL(glDeleteFramebuffers(1, &framebuffer));
    OpenGL::render_end();
    if (!complete)
    {
        return false;
    }

    argb.resize(size_t(width) * height);
    for (size_t i = 0; i < argb.size(); i++)
    {
        const uint8_t *p = &rgba[i * 4];
        uint32_t alpha   = attribs.has_alpha ? p[3] : 0xff;
        argb[i] = (alpha << 24) | (uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | p[2];
    }

    return true;
}
}
