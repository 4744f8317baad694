/* switcher/include/bls/mutant.h -- known-bad variants of the C code, to prove that `blsim
 * explore` finds the bugs it is meant to find (docs/explore.md).
 *
 * Compiled in only with -DBLS_MUTANTS (CMake: -DBLSIM_MUTANTS=ON, as scripts/check-sanitizers'
 * tree is); otherwise BLS_MUTANT() is the constant 0 and the compiler removes every variant.
 * The platform picks at most one for a run (struct bls_hw's mutant; `blsim run --mutant NAME`),
 * so that one build serves them all. Each is a bug that real switcher or MCPM code could have:
 * the correct code stays right beside it. */
#ifndef BLS_MUTANT_H
#define BLS_MUTANT_H

enum bls_mutant {
	BLS_MUTANT_NONE = 0,
	/* gic_migrate_target forgets the SGIs pending on the outbound: an IPI of the logical CPU
	 * raised just before the migration (a reschedule) stays on the outbound, which hosts no
	 * logical CPU any more, and never reaches the inbound (invariant no-ipi-lost). */
	BLS_MUTANT_GIC_FORGETS_PENDING_SGIS = 1,
	/* vlock_trylock without its voting flag: two CPUs coming up in one cluster at once can
	 * both win the first-man election. */
	BLS_MUTANT_VLOCK_WITHOUT_VOTING = 2,
	/* The last man does not abort when a CPU is coming up in its cluster: it ignores the
	 * inbound state, and takes a CPU of its cluster in COMING_UP for down (only one UP
	 * stops it). A CPU woken by an interrupt (not counted up by mcpm_cpu_power_up) that saw
	 * its cluster UP just before the last man marked it GOING_DOWN runs on while the last
	 * man cleans the caches, turns the CCI port off and marks the cluster DOWN under it.
	 * (Ignoring the inbound state alone is an equivalent mutant: the inbound wrote
	 * COMING_UP to its own CPU state before it took the vlock, and the scan of the CPU
	 * states aborts on it; docs/explore.md.) */
	BLS_MUTANT_LAST_MAN_IGNORES_INBOUND = 3,
	/* The outbound opens the inbound's gate as the blackout begins, before it has migrated
	 * the GIC and saved the logical CPU's context: the inbound can resume a CPU that is not
	 * yet handed over. (Powering down without waiting for the handshake, the obvious
	 * variant, breaks nothing this model can see: the context is already in memory.) */
	BLS_MUTANT_GATE_OPENED_BEFORE_SAVE = 4,
	BLS_MUTANT_COUNT
};

#ifdef BLS_MUTANTS
#define BLS_MUTANT(hw, m) ((hw)->mutant == (unsigned)(m))
#else
#define BLS_MUTANT(hw, m) ((void)(hw), 0)
#endif

#endif /* BLS_MUTANT_H */
