/*-------------------------------------------------------------------------
 *
 * kernelindex.h
 *	  Declarations shared by the kernelindex extension's C files.
 *
 *-------------------------------------------------------------------------
 */
#ifndef KERNELINDEX_H
#define KERNELINDEX_H

/* Values of the kernelindex.on_bad_row setting. */
typedef enum KidxOnBadRow
{
	KIDX_ON_BAD_ROW_ERROR,		/* the whole statement fails */
	KIDX_ON_BAD_ROW_QUARANTINE	/* bad rows are kept aside with a reason */
} KidxOnBadRow;

extern int	kidx_on_bad_row;

/* kernelindex.load_memory: what a load statement collects before storing it, in kB. */
extern int	kidx_load_memory;

/* kernelindex.change_*: the settings of the change-point method (doc/change-points.md). */
extern double kidx_change_max_p;
extern double kidx_change_min_shift;
extern int	kidx_change_min_points;
extern double kidx_change_noise_floor;

#endif							/* KERNELINDEX_H */
