/* switcher/include/bls/check.h -- checks of the C code that stay in every build.
 *
 * BLS_CHECK(hw, cpu, condition) is the kernel's BUG_ON turned around: when @condition is
 * false the C code has reached a state its protocol forbids (an illegal MCPM transition, a
 * switch phase out of order), which is a simulator bug. The platform's bug verb stops the
 * run and reports the check, its place and the time; it never returns (if a platform's did,
 * the process aborts). Unlike assert() it is compiled in every build type: the run-time
 * checks docs/switcher.md and docs/mcpm.md list always run. Keep conditions cheap.
 */
#ifndef BLS_CHECK_H
#define BLS_CHECK_H

#include "bls/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Report a failed check through @hw's platform and do not return. @cpu may be
 * BLS_CHECK_ANY_CPU when the failing code does not know which CPU runs it. */
#define BLS_CHECK_ANY_CPU (~0u)
_Noreturn void bls_check_failed(const struct bls_hw *hw, unsigned cpu, const char *file, int line,
				const char *check);

#define BLS_CHECK(hw, cpu, condition)                                                          \
	do {                                                                                    \
		if (!(condition))                                                               \
			bls_check_failed((hw), (cpu), __FILE__, __LINE__, #condition);         \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* BLS_CHECK_H */
