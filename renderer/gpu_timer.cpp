// The frame's GPU timer (see gpu_timer.h).
#include "renderer/gpu_timer.h"

namespace esv {

void GpuTimer::begin() {
    m_timing = false;
    if (!m_available) return;
    if (!m_timerQueries[0]) {
        GLuint names[kTimerQueries] = {};
        glGenQueriesEXT(kTimerQueries, names);
        for (int i = 0; i < kTimerQueries; ++i) m_timerQueries[i] = gl::Query(names[i]);
    }
    // Reading GPU_DISJOINT also clears it: a disjoint event (clock change, power state) makes
    // the results in flight meaningless, so they are dropped.
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    for (int k = 0; k < kTimerQueries; ++k) {
        const int i = (m_timerNext + k) % kTimerQueries;  // oldest first
        if (!m_timerPending[i]) continue;
        GLuint available = 0;
        glGetQueryObjectuivEXT(m_timerQueries[i].get(), GL_QUERY_RESULT_AVAILABLE_EXT, &available);
        if (!available) break;  // later ones are not ready either
        GLuint64 nanoseconds = 0;
        glGetQueryObjectui64vEXT(m_timerQueries[i].get(), GL_QUERY_RESULT_EXT, &nanoseconds);
        m_timerPending[i] = false;
        if (!disjoint) m_gpuMs = float(double(nanoseconds) * 1e-6);
    }
    if (m_timerPending[m_timerNext]) return;  // every query still in flight: this frame goes untimed
    glBeginQueryEXT(GL_TIME_ELAPSED_EXT, m_timerQueries[m_timerNext].get());
    m_timing = true;
}

void GpuTimer::end() {
    if (!m_timing) return;
    glEndQueryEXT(GL_TIME_ELAPSED_EXT);
    m_timerPending[m_timerNext] = true;
    m_timerNext = (m_timerNext + 1) % kTimerQueries;
    m_timing = false;
}

}  // namespace esv
