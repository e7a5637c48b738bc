// GPU time of a frame from GL_EXT_disjoint_timer_query: one TIME_ELAPSED query per frame from a
// small ring; results are collected when they are ready (never waited for), so the time reported
// is an earlier frame's. Mesa's llvmpipe lists the extension but its elapsed times are tens of
// nanoseconds, not frame times.
#pragma once

#include <glad/gles2.h>

#include "renderer/gl_objects.h"

namespace esv {

class GpuTimer {
public:
    // `available`: the context has the extension and glad loaded its entry points.
    explicit GpuTimer(bool available) : m_available(available) {}

    // Collects the results that are ready, then starts timing this frame unless every query of the
    // ring is still in flight (that frame goes untimed).
    void begin();
    // Ends the query begin() started, if it started one.
    void end();
    // The newest collected time in milliseconds; -1 before the first (or without the extension).
    float lastMs() const { return m_gpuMs; }

private:
    // Timer queries in flight: results are read a few frames late so reading never waits on the GPU.
    static constexpr int kTimerQueries = 4;

    bool m_available = false;
    gl::Query m_timerQueries[kTimerQueries];
    bool m_timerPending[kTimerQueries] = {};
    int m_timerNext = 0;
    bool m_timing = false;
    float m_gpuMs = -1.0f;
};

}  // namespace esv
