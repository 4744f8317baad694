/* switcher/include/bls/governor.h -- cpufreq governors: *when* to change performance.
 *
 * A governor runs per cpufreq policy. With the switcher on a policy is a logical CPU and its
 * frequencies are the merged virtual table (bls/cpufreq.h); with it off a policy is a cluster
 * and its frequencies the cluster's OPPs. A governor samples from the timers of its policy's
 * CPUs, reads their load from the scheduler (busy time as get_cpu_idle_time_us gives it, or
 * tracked utilisation), and asks for a frequency; it never decides which cluster serves it
 * (the driver's job) and never touches hardware.
 *
 * The core (src/cpufreq/governor.c) owns policies, the per-CPU sampling deadlines and the
 * statistics; each governor is an ops table over it. Sampling deadlines are deferrable: an
 * idle CPU is not woken for them, and an overdue sample runs when the CPU leaves idle. Only
 * the slack deadline (interactive's slack timer) wakes an idle CPU.
 *
 * Everything here is bookkeeping on times the caller passes: no simulated time passes inside,
 * so tests drive governors with hand-made load sequences (tests/switcher/governor_test.cpp).
 */
#ifndef BLS_GOVERNOR_H
#define BLS_GOVERNOR_H

#include <stdint.h>

#include "bls/tunable.h"
#include "bls/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLS_GOV_MAX_FREQS 32
#define BLS_GOV_MAX_TARGET_LOADS 16
#define BLS_GOV_NO_DEADLINE UINT64_MAX

/* The generations of Android's interactive governor (docs/os.md, "The interactive
 * governor's generations"). Distinct values, so that a stray integer is never one. */
enum bls_interactive_variant {
	/* mid-2012 AOSP android-3.0/3.4: load = max(short, long window) unweighted, new speed
	 * max x load / 100, a non-deferrable timer while above the minimum */
	BLS_INTERACTIVE_2012 = 2012,
	/* late-2012/2013 AOSP: frequency-weighted load, choose_freq over target_loads, a
	 * deferrable timer with timer_slack, boostpulse_duration, io_is_busy */
	BLS_INTERACTIVE_2013 = 2013,
};

/* Tunables, as the sysfs files of each governor (times in us, loads in percent). Each numeric
 * or boolean one is a row of a table below (the rows' format: bls/tunable.h). No table holds
 * the tunables that are not numbers: interactive's generation (variant) and its target_loads
 * (text parsed into the arrays of its struct). */

/* interactive: hispeed_freq and go_hispeed_load; target_loads follows them in the scenario. */
#define BLS_INTERACTIVE_TUNABLES_HISPEED(X)                                                     \
	X(INT, hispeed_freq_mhz, unsigned, 0, hispeed_freq_mhz, 0, 100000, "MHz", 1, ALL,            \
	  "Speed to jump to on a load burst; 0: the policy's maximum.")                             \
	X(INT, go_hispeed_load, unsigned, 99, go_hispeed_load_pct, 1, 1000, "%", 1, ALL,               \
	  "Load at or above which the speed jumps to hispeed_freq_mhz. The default is "            \
	  "variant 2013's; 2012's is 85.")

/* interactive: the rest, after target_loads. */
#define BLS_INTERACTIVE_TUNABLES_TIMING(X)                                                      \
	X(INT, min_sample_time_us, uint32_t, 80000, min_sample_time_us, 0, 100000000, "us", 1, ALL,   \
	  "Time a speed is held before the governor may lower it.")                                 \
	X(INT, timer_rate_us, uint32_t, 20000, timer_rate_us, 1000, 100000000, "us", 1, ALL,          \
	  "Sampling period while busy.")                                                             \
	X(INT, above_hispeed_delay_us, uint32_t, 20000, above_hispeed_delay_us, 0, 100000000, "us", \
	  1, ALL, "Time at or above hispeed (2012: at it) before going higher.")                       \
	X(INT, timer_slack_us, int32_t, 80000, timer_slack_us, -1, 100000000, "us", 1, G2013,         \
	  "2013: how much later than a sample an idle CPU above the minimum speed is woken to "     \
	  "lower it; -1: never. (2012's timer wakes an idle CPU above the minimum at the sample.)")  \
	X(BOOL, boost, int, 0, boost, 0, 1, "", 1, ALL, "Hold every CPU at hispeed_freq_mhz or above.") \
	X(INT, boostpulse_duration_us, uint32_t, 80000, boostpulse_duration_us, 0, 100000000, "us", 1, \
	  G2013,                                                                                      \
	  "2013: length of a boost pulse (a write of boostpulse). (2012: a pulse raises to "         \
	  "hispeed_freq_mhz, held by min_sample_time_us.)")                                          \
	X(BOOL, io_is_busy, int, 0, io_is_busy, 0, 1, "", 1, G2013,                                     \
	  "2013: time idle with a task waiting for block I/O counts as busy. (2012 always "          \
	  "counts it busy.)")                                                                        \
	X(INT, hispeed_freq2_mhz, unsigned, 0, hispeed_freq2_mhz, 0, 100000, "MHz", 1, ALL,            \
	  "Ours, unverified against any Linaro tree: a second threshold above "                     \
	  "hispeed_freq_mhz; beyond it only at go_hispeed_load2_pct. 0: none.")                      \
	X(INT, go_hispeed_load2, unsigned, 100, go_hispeed_load2_pct, 1, 1000, "%", 1, ALL,            \
	  "Load at or above which the speed may pass, and jumps to, hispeed_freq2_mhz.")

#define BLS_ONDEMAND_TUNABLES(X)                                                                \
	X(INT, sampling_rate_us, uint32_t, 20000, sampling_rate_us, 1000, 100000000, "us", 1, ALL,    \
	  "Sampling period.")                                                                        \
	X(INT, up_threshold, unsigned, 80, up_threshold_pct, 1, 100, "%", 1, ALL,                      \
	  "Load above which the policy goes to its maximum.")                                       \
	X(INT, sampling_down_factor, unsigned, 1, sampling_down_factor, 1, 100000, "", 1, ALL,         \
	  "Sampling periods spent at the maximum before the next evaluation.")                      \
	X(INT, powersave_bias, unsigned, 0, powersave_bias_permille, 0, 1000, "per mille", 1, ALL,     \
	  "Share of the chosen speed given up (the table entry at or below the rest).")

#define BLS_CONSERVATIVE_TUNABLES(X)                                                            \
	X(INT, sampling_rate_us, uint32_t, 20000, sampling_rate_us, 1000, 100000000, "us", 1, ALL,    \
	  "Sampling period.")                                                                        \
	X(INT, up_threshold, unsigned, 80, up_threshold_pct, 1, 100, "%", 1, ALL,                      \
	  "Load above which it steps up.")                                                           \
	X(INT, down_threshold, unsigned, 20, down_threshold_pct, 0, 99, "%", 1, ALL,                   \
	  "Load below which it steps down.")                                                         \
	X(INT, freq_step, unsigned, 5, freq_step_pct, 0, 100, "%", 1, ALL,                             \
	  "Step, as a share of the policy's maximum.")                                              \
	X(INT, sampling_down_factor, unsigned, 1, sampling_down_factor, 1, 100000, "", 1, ALL,         \
	  "Samples below the threshold before a step down.")

#define BLS_SCHEDUTIL_TUNABLES(X)                                                               \
	X(INT, rate_limit_us, uint32_t, 10000, rate_limit_us, 0, 100000000, "us", 1, ALL,             \
	  "Shortest time between two frequency evaluations.")

struct bls_interactive_tunables {
	enum bls_interactive_variant variant; /* not a sysfs file: which code runs */
	BLS_INTERACTIVE_TUNABLES_HISPEED(BLS_TUNABLE_FIELD)
	/* target_loads "L0 F1:L1 F2:L2 ..." (2013 only), parsed: */
	unsigned ntarget_loads;
	unsigned target_load[BLS_GOV_MAX_TARGET_LOADS];      /* L0, L1, ... */
	unsigned target_load_freq[BLS_GOV_MAX_TARGET_LOADS]; /* 0, F1, F2, ... (ascending) */
	BLS_INTERACTIVE_TUNABLES_TIMING(BLS_TUNABLE_FIELD)
};

struct bls_ondemand_tunables {
	BLS_ONDEMAND_TUNABLES(BLS_TUNABLE_FIELD)
};

struct bls_conservative_tunables {
	BLS_CONSERVATIVE_TUNABLES(BLS_TUNABLE_FIELD)
};

struct bls_schedutil_tunables {
	BLS_SCHEDUTIL_TUNABLES(BLS_TUNABLE_FIELD)
};

struct bls_governor_tunables {
	struct bls_interactive_tunables interactive;
	struct bls_ondemand_tunables ondemand;
	struct bls_conservative_tunables conservative;
	struct bls_schedutil_tunables schedutil;
};

/* Linux's defaults for every tunable (cpufreq_interactive.c, docs/sources.md; docs/os.md for
 * the others); the interactive governor's are its 2013 generation's. */
void bls_governor_default_tunables(struct bls_governor_tunables *t);

/* bls_interactive_default_tunables - @t as generation @v starts them (go_hispeed_load 85 in
 * 2012, 99 in 2013; the tunables a generation lacks at 2013's values, unused). */
void bls_interactive_default_tunables(struct bls_interactive_tunables *t, enum bls_interactive_variant v);

/* bls_interactive_parse_target_loads - parse sysfs's "L0 F1:L1 F2:L2 ..." into @t. Returns 0,
 * or the 1-based column of the first bad character. */
int bls_interactive_parse_target_loads(struct bls_interactive_tunables *t, const char *text);

/* A policy: the CPUs it governs and its frequency table. */
struct bls_policy {
	uint32_t cpus;              /* logical CPUs */
	unsigned first_cpu;         /* the lowest of them: policy->cpu */
	unsigned nfreqs;
	unsigned freq_mhz[BLS_GOV_MAX_FREQS]; /* ascending */
	unsigned min_mhz, max_mhz;
	double capacity;            /* at max_mhz, of the reference (1024), for schedutil */
	/* read-only for callers */
	unsigned cur_mhz;           /* as last set (policy->cur) */
	unsigned target_mhz;        /* as last asked */
	uint64_t time_in_state_ns[BLS_GOV_MAX_FREQS];
	uint64_t tis_since_ns;
	uint64_t freq_changes;      /* transitions completed that changed cur */
};

/* Per-CPU governor state: the sampling timer and each governor's own. */
struct bls_gov_cpu {
	uint64_t next_ns;      /* deferrable sampling deadline */
	uint64_t slack_ns;     /* non-deferrable deadline */
	uint64_t prev_idle_ns, prev_wall_ns; /* load window */
	/* interactive */
	unsigned target_mhz, floor_mhz;
	uint64_t floor_validate_ns, hispeed_validate_ns;
	double speedadj;       /* active us x MHz since the window's start */
	uint64_t speedadj_ts;
	/* interactive 2012: the long window since the last target change (its short one is
	 * prev_wall_ns/prev_idle_ns), and whether the timer goes when the CPU idles at min */
	uint64_t target_set_ns, target_set_idle_ns;
	int timer_idlecancel;
	/* ondemand and conservative, on the policy's first CPU */
	unsigned down_skip;     /* conservative: samples skipped before a step down */
	unsigned rate_mult;     /* ondemand: windows to wait at max */
	unsigned requested_mhz; /* conservative: the sum of its steps (not rounded to the table) */
	uint64_t last_update_ns; /* schedutil: its policy's last update (last_freq_update_time) */
};

/* What a governor needs of the kernel. Called from within the governor's functions. */
struct bls_gov_env {
	/* idle_ns - time @cpu has been idle up to @now_ns (monotonic), iowait included. */
	uint64_t (*idle_ns)(void *ctx, unsigned cpu, uint64_t now_ns);
	/* util - @cpu's tracked utilisation, 0..1024 of the reference capacity. */
	double (*util)(void *ctx, unsigned cpu, uint64_t now_ns);
	/* request - ask for @mhz (a frequency of the policy's table) on behalf of logical CPU
	 * @cpu, one of the policy's: the kernel starts the transition there. */
	void (*request)(void *ctx, unsigned cpu, unsigned mhz);
	/* sampled - optional: the governor sampled @cpu's load (@load_pct, its own measure)
	 * for tracing. */
	void (*sampled)(void *ctx, unsigned cpu, unsigned load_pct);
	/* iowait_ns - optional (none: no I/O wait): the part of idle_ns that @cpu spent with a
	 * task of its asleep in I/O (get_cpu_iowait_time_us), up to @now_ns. */
	uint64_t (*iowait_ns)(void *ctx, unsigned cpu, uint64_t now_ns);
	/* in_flight - optional (none: never): a frequency request of @cpu's policy is posted or
	 * its transition not over (schedutil's work_in_progress). */
	int (*in_flight)(void *ctx, unsigned cpu);
	/* rt_runnable - optional (none: never): @cpu has a real-time task runnable, which
	 * schedutil serves at the top frequency (SCHED_CPUFREQ_RT). */
	int (*rt_runnable)(void *ctx, unsigned cpu);
};

struct bls_governor;

struct bls_governor_ops {
	const char *name;
	/* start - the governor takes @p over at @now_ns (GOV_START): initial requests, timers.
	 * Required. */
	void (*start)(struct bls_governor *g, struct bls_policy *p, uint64_t now_ns);
	/* sample - a deadline of logical CPU @cpu (of @p) has passed. Optional. */
	void (*sample)(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now_ns);
	/* idle_enter / idle_exit - @cpu goes idle, or leaves idle (before running anything).
	 * Optional; without, an overdue sample simply runs at idle exit. */
	void (*idle_enter)(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now_ns);
	void (*idle_exit)(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now_ns);
	/* freq_changing - @p's frequency is about to become @mhz (CPUFREQ_POSTCHANGE, seen just
	 * before cur changes so that time at the old one is accounted). Optional. */
	void (*freq_changing)(struct bls_governor *g, struct bls_policy *p, unsigned mhz, uint64_t now_ns);
	/* boostpulse - a write to boostpulse. Optional (ignored). */
	void (*boostpulse)(struct bls_governor *g, uint64_t now_ns);
	/* iowait_busy - whether the governor, with its tunables now, counts I/O wait as busy
	 * time (its idle time is then get_cpu_idle_time_us's, iowait left out). Optional: no. */
	int (*iowait_busy)(const struct bls_governor *g);
};

struct bls_governor_stats {
	uint64_t samples;   /* sampling deadlines handled */
	uint64_t requests;  /* frequencies asked that differed from the policy's last */
	uint64_t failed_transitions; /* requests the driver could not carry out */
};

struct bls_governor {
	const struct bls_governor_ops *ops;
	struct bls_governor_tunables tun;
	const struct bls_gov_env *env;
	void *ctx;
	/* private */
	unsigned npolicies;
	struct bls_policy policy[BLS_MAX_CPUS];
	int policy_of[BLS_MAX_CPUS];   /* per logical CPU, -1: none */
	struct bls_gov_cpu cpu[BLS_MAX_CPUS];
	int idle[BLS_MAX_CPUS];
	uint64_t boostpulse_end_ns;
	/* public, read-only */
	struct bls_governor_stats stats;
};

/* The governors, by name. */
extern const struct bls_governor_ops bls_gov_performance;
extern const struct bls_governor_ops bls_gov_powersave;
extern const struct bls_governor_ops bls_gov_userspace;
extern const struct bls_governor_ops bls_gov_interactive;
extern const struct bls_governor_ops bls_gov_ondemand;
extern const struct bls_governor_ops bls_gov_conservative;
extern const struct bls_governor_ops bls_gov_schedutil;

/* bls_governor_find - the governor called @name, or NULL. */
const struct bls_governor_ops *bls_governor_find(const char *name);

/* bls_governor_init - @g with @ops, @tun, and the kernel's @env/@ctx; no policies yet. */
void bls_governor_init(struct bls_governor *g, const struct bls_governor_ops *ops,
		       const struct bls_governor_tunables *tun, const struct bls_gov_env *env, void *ctx);

/* bls_gov_sampled - a governor's sample measured @load_pct on @cpu (reported to the
 * environment's tracing, if any). */
void bls_gov_sampled(struct bls_governor *g, unsigned cpu, double load_pct);

/* bls_governor_set_policies - replace the policies (the switcher turned on or off, as the
 * driver re-registers) with @n of @p, each starting at its cur_mhz at @now_ns, and start the
 * governor on each. Returns 0 or -BLS_EINVAL (bad tables, overlapping CPUs). */
int bls_governor_set_policies(struct bls_governor *g, const struct bls_policy *p, unsigned n, uint64_t now_ns);

/* bls_governor_deadline - when @cpu's timer must fire for the governor: the slack deadline,
 * and while @cpu is busy the sampling one. */
uint64_t bls_governor_deadline(const struct bls_governor *g, unsigned cpu, int idle);

/* bls_governor_run - @cpu's scheduling point at @now_ns: runs its sample if a deadline has
 * passed. */
void bls_governor_run(struct bls_governor *g, unsigned cpu, uint64_t now_ns);

/* bls_governor_idle - @cpu enters (@idle) or leaves idle at @now_ns. */
void bls_governor_idle(struct bls_governor *g, unsigned cpu, int idle, uint64_t now_ns);

/* bls_governor_freq_failed - the driver could not carry out the policy of logical CPU @cpu's
 * last request (CPUFREQ_POSTCHANGE with the old frequency): cur stays, and the request counts
 * as not made, so the next evaluation asks again. */
void bls_governor_freq_failed(struct bls_governor *g, unsigned cpu, uint64_t now_ns);

/* bls_governor_freq_changed - the transition of @cpu's policy to @mhz completed. */
void bls_governor_freq_changed(struct bls_governor *g, unsigned cpu, unsigned mhz, uint64_t now_ns);

/* bls_governor_boostpulse - a write to interactive's boostpulse. */
void bls_governor_boostpulse(struct bls_governor *g, uint64_t now_ns);

/* bls_governor_policy_of - @cpu's policy, or NULL. */
struct bls_policy *bls_governor_policy_of(struct bls_governor *g, unsigned cpu);

/* Frequency-table lookups (CPUFREQ_RELATION_L: lowest at or above; _H: highest at or
 * below; _C: closest, ties up), clamped to the table. */
unsigned bls_policy_freq_l(const struct bls_policy *p, double mhz);
unsigned bls_policy_freq_h(const struct bls_policy *p, double mhz);
unsigned bls_policy_freq_c(const struct bls_policy *p, double mhz);

/* bls_policy_time_in_state_ns - @p's time at its frequency @i up to @now_ns (the current
 * frequency's open stretch included). */
uint64_t bls_policy_time_in_state_ns(const struct bls_policy *p, unsigned i, uint64_t now_ns);

/* --- for the governors ----------------------------------------------------------------- */

/* Ask for @mhz for @p from @cpu (no-op when it is the policy's target already). */
void bls_gov_request(struct bls_governor *g, struct bls_policy *p, unsigned cpu, unsigned mhz);
/* Idle time of @cpu up to @now_ns as the governor counts it: iowait included unless its
 * iowait_busy says otherwise. */
uint64_t bls_gov_idle_ns(struct bls_governor *g, unsigned cpu, uint64_t now_ns);
/* Busy time of @cpu (ns) since its last window, and start a new window. */
uint64_t bls_gov_busy_ns(struct bls_governor *g, unsigned cpu, uint64_t now_ns);
/* Load of @cpu in % since its last window, and start a new window (busy time / wall). */
unsigned bls_gov_cpu_load(struct bls_governor *g, unsigned cpu, uint64_t now_ns);
/* Set the sampling deadline of every CPU of @p to @at (a per-policy timer). */
void bls_gov_arm(struct bls_governor *g, const struct bls_policy *p, uint64_t at);
/* Run @p's sample on @cpu now, its deadlines spent (counted as a sample). */
void bls_gov_sample_now(struct bls_governor *g, struct bls_policy *p, unsigned cpu, uint64_t now_ns);

#ifdef __cplusplus
}
#endif

#endif /* BLS_GOVERNOR_H */
