/* switcher/src/bL/vlock.c -- voting locks (bls/vlock.h). */
#include "bls/vlock.h"

#include "bls/check.h"

static uint32_t rd(const struct bls_hw *hw, unsigned cpu, uint64_t addr, unsigned bytes)
{
	return hw->ops->shm_read(hw->plat, cpu, addr, bytes);
}

static void wr(const struct bls_hw *hw, unsigned cpu, uint64_t addr, unsigned bytes, uint32_t v)
{
	hw->ops->shm_write(hw->plat, cpu, addr, bytes, v);
}

int bls_vlock_trylock(const struct bls_hw *hw, unsigned cpu, uint64_t lock, unsigned voter)
{
	BLS_CHECK(hw, cpu, voter < BLS_VLOCK_MAX_VOTERS);
	const uint64_t my_flag = lock + BLS_VLOCK_VOTING_OFFSET + voter;
	const uint32_t my_id = voter + BLS_VLOCK_VOTING_OFFSET;

	/* Announce that we are voting, so that a later owner check waits for us. */
	const int announce = !BLS_MUTANT(hw, BLS_MUTANT_VLOCK_WITHOUT_VOTING);
	if (announce)
		wr(hw, cpu, my_flag, 1, 1);

	/* Somebody already owns it: withdraw. */
	if (rd(hw, cpu, lock, 1) != 0) {
		if (announce)
			wr(hw, cpu, my_flag, 1, 0);
		hw->ops->cpu_send_event(hw->plat, cpu);
		return 1;
	}

	/* Vote: the last writer of the owner byte wins. */
	wr(hw, cpu, lock, 1, my_id);
	if (announce)
		wr(hw, cpu, my_flag, 1, 0);
	hw->ops->cpu_send_event(hw->plat, cpu);

	/* Wait until nobody is still voting; the owner byte then holds the result. The flags
	 * are read a word (4 voters) at a time, each word until it is clear, as vlock.S does. */
	const unsigned words = (bls_hw_cluster_cpus(hw, hw->cpu_cluster[cpu]) + 3u) / 4u;
	BLS_CHECK(hw, cpu, words >= 1 && voter < 4u * words);
	for (unsigned w = 0; w < words; w++)
		while (rd(hw, cpu, lock + BLS_VLOCK_VOTING_OFFSET + 4u * w, 4) != 0)
			hw->ops->cpu_wait_for_event(hw->plat, cpu);

	return rd(hw, cpu, lock, 1) == my_id ? 0 : 1;
}

void bls_vlock_unlock(const struct bls_hw *hw, unsigned cpu, uint64_t lock)
{
	wr(hw, cpu, lock, 1, 0);
	hw->ops->cpu_send_event(hw->plat, cpu);
}
