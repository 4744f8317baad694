/* switcher/include/bls/cpuidle.h -- idle states and the choice among them (Linux's cpuidle
 * with a menu-like governor; the states of drivers/cpuidle/cpuidle-big_little.c).
 *
 * Each cluster has its idle states, shallowest first, from the SoC file: WFI (the core
 * clock-gated) and power-down (the core off through MCPM; the last one down takes its cluster
 * with it). Each has an exit latency and a target residency: the shortest idle period for
 * which entering it saves energy. The choice: the deepest state whose target residency fits
 * in the predicted idle time and whose exit latency fits the latency limit. The prediction is
 * the time to the CPU's next known timer deadline (menu's first estimate, without its
 * correction from past idle periods: docs/os.md).
 */
#ifndef BLS_CPUIDLE_H
#define BLS_CPUIDLE_H

#include <stdint.h>

#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLS_MAX_IDLE_STATES 4

enum bls_idle_kind {
	BLS_IDLE_WFI = 1,        /* cpu_wait_for_interrupt */
	BLS_IDLE_POWER_DOWN = 2, /* MCPM power-down, the cluster too if last */
};

struct bls_idle_state {
	enum bls_idle_kind kind;
	uint32_t exit_latency_us;
	uint32_t target_residency_us;
};

struct bls_cpuidle_config {
	unsigned nstates[BLS_MAX_CLUSTERS];
	struct bls_idle_state state[BLS_MAX_CLUSTERS][BLS_MAX_IDLE_STATES];
	uint32_t latency_limit_us; /* PM QoS cpu_dma_latency; UINT32_MAX: none */
};

struct bls_cpuidle_stats {
	uint64_t entries[BLS_MAX_IDLE_STATES];
	uint64_t residency_ns[BLS_MAX_IDLE_STATES];
};

struct bls_cpuidle {
	struct bls_cpuidle_config cfg;
	/* private */
	int in_state[BLS_MAX_CPUS]; /* -1: not idle */
	uint64_t entered_ns[BLS_MAX_CPUS];
	/* public, read-only: per physical CPU */
	struct bls_cpuidle_stats stats[BLS_MAX_CPUS];
};

/* bls_cpuidle_init - check @cfg (every cluster of @nclusters with a first state WFI, states
 * ordered by target residency). Returns 0 or -BLS_EINVAL. */
int bls_cpuidle_init(struct bls_cpuidle *ci, const struct bls_cpuidle_config *cfg, unsigned nclusters);

/* bls_cpuidle_select - the state for a CPU of @cluster expecting @predicted_ns of idle
 * (UINT64_MAX: no known end). */
unsigned bls_cpuidle_select(const struct bls_cpuidle *ci, unsigned cluster, uint64_t predicted_ns);

/* bls_cpuidle_enter / _exit - physical CPU @cpu enters state @idx at @now_ns / leaves it. */
void bls_cpuidle_enter(struct bls_cpuidle *ci, unsigned cpu, unsigned idx, uint64_t now_ns);
void bls_cpuidle_exit(struct bls_cpuidle *ci, unsigned cpu, uint64_t now_ns);

#ifdef __cplusplus
}
#endif

#endif /* BLS_CPUIDLE_H */
