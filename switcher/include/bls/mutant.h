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
	/* gic_migrate_target forgets the SGIs pending on the outbound: an IPI raised just
	 * before the migration stays on a CPU going down, which it wakes to park at its gate. */
	BLS_MUTANT_GIC_FORGETS_PENDING_SGIS = 1,
	/* vlock_trylock without its voting flag: two CPUs coming up in one cluster at once can
	 * both win the first-man election. */
	BLS_MUTANT_VLOCK_WITHOUT_VOTING = 2,
	/* The last man does not abort when an inbound CPU is coming up in its cluster: it
	 * powers the cluster down under the inbound's feet. */
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
