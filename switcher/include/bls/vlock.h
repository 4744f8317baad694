/* switcher/include/bls/vlock.h -- voting locks: mutual exclusion that works with caches off.
 *
 * The first man of a cluster is chosen while its CPUs come out of reset with caches and MMU
 * off, so ordinary exclusive-access spinlocks cannot be used. A vlock needs only ordinary
 * loads and stores to strongly-ordered memory (the shm verbs): each contender raises its
 * voting flag, checks that nobody owns the lock, writes its id as owner (the last writer
 * wins), lowers its flag, waits until nobody is voting and reads the owner back. Exactly one
 * contender sees its own id. The algorithm is Linux's (arch/arm/common/vlock.S,
 * Documentation/arm/vlocks.txt); this is a C rendering over timed shared-memory verbs.
 *
 * Layout in shared memory, BLS_VLOCK_SIZE bytes at @lock: the owner byte at offset 0 (0: no
 * owner; a voter's id is its index + BLS_VLOCK_VOTING_OFFSET, so zeroed memory is an
 * unlocked lock), then one voting byte per voter at offset BLS_VLOCK_VOTING_OFFSET, read as
 * 32-bit words when waiting for voters: as many words as the voters' cluster needs (one for
 * up to 4 CPUs, two for up to 8), as Linux sizes VLOCK_VOTING_SIZE by its CPUs per cluster.
 */
#ifndef BLS_VLOCK_H
#define BLS_VLOCK_H

#include "bls/hw.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BLS_VLOCK_VOTING_OFFSET 4u
#define BLS_VLOCK_MAX_VOTERS BLS_MAX_CPUS_PER_CLUSTER
#define BLS_VLOCK_SIZE (BLS_VLOCK_VOTING_OFFSET + BLS_VLOCK_MAX_VOTERS)

/* bls_vlock_trylock - contend for @lock as voter @voter (the CPU's index in its cluster),
 * running on @cpu; the voters are the CPUs of @cpu's cluster. Returns 0 when this voter won, nonzero otherwise. A loser does
 * not retry: the caller decides (MCPM's losers wait for the winner's result instead). */
int bls_vlock_trylock(const struct bls_hw *hw, unsigned cpu, uint64_t lock, unsigned voter);

/* bls_vlock_unlock - release @lock, which @cpu owns, and wake waiters (SEV). */
void bls_vlock_unlock(const struct bls_hw *hw, unsigned cpu, uint64_t lock);

#ifdef __cplusplus
}
#endif

#endif /* BLS_VLOCK_H */
