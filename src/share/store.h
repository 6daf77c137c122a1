/*
 * The file store of shared state: a file per name in a private directory
 * ($XDG_RUNTIME_DIR/retry, else /tmp/retry-UID, or --share-store
 * file:DIR), each read, changed and written back under an fcntl lock that
 * is held only for that: never while an attempt runs or retry sleeps.
 * Taking the lock does not block: it is tried again inside the one wait,
 * until the store's deadline (by), so that a stopped process that holds it
 * cannot hold retry.  Each state is written over the one before as a
 * record of the same length, in one write: a kill leaves one of the two.
 */
#ifndef RETRY_STORE_H
#define RETRY_STORE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "share.h"
#include "sketch.h"

struct store {
	int		 dirfd;
	int		 fd;		/* the name's file, or -1 */
	int64_t		 by;		/* the lock is waited for until then
					 * (CLOCK_MONOTONIC ns) */
	bool		 ending;	/* the run's last words: a signal does
					 * not end the wait */
	char		 dir[PATH_MAX];
	char		 name[SHARE_NAME_MAX + 1];
};

/* A name's latency history (sketch.h), kept beside its state in a record
 * of its own: read by every update and read, and changed by an update
 * that adds a sample. */
struct store_history {
	int64_t		 add;		/* the sample to add (ns), or -1 */
	char		 text[SKETCH_TEXT_MAX];	/* "" when none yet */
};

/* What a change of the state does at now: reads and changes it, pure. */
typedef void	(*store_fn)(struct share_state *, int64_t now, void *);

/* The directory: DIR, or NULL for the default; it is made
 * 0700 if missing and create, and refused unless it is a directory of the
 * user's own that no one else may write.  -1 with why in err (errno
 * ENOENT: it is missing; EPERM: it is refused). */
int		 store_open(struct store *, const char *dir, bool create,
		    char *err, size_t);
/* The name's file, made 0600 if missing and create; -1 with why in err
 * (errno ENOENT: there is none; EPERM: it is refused). */
int		 store_name(struct store *, const char *name, bool create,
		    char *err, size_t);
/*
 * Reads the name's state (fresh by rules at now when the file is new or
 * corrupt: *corrupt then says which), lets fn change it, and writes it
 * back, under the lock; write false only reads.  The history h (or NULL)
 * is read in the same update, and with write and h->add >= 0 has the
 * sample added and is written back with the state.  -1 with why in err
 * when the store cannot be used now.
 */
int		 store_update(struct store *, const struct share_rules *,
		    int64_t now, store_fn, void *, bool write,
		    struct store_history *h, bool *corrupt, char *err, size_t);
/* The names in the directory, sorted; the caller frees the array and the
 * names.  -1 with errno. */
int		 store_names(const struct store *, char ***, size_t *);
/* Empties the name's file under the lock: the next run starts afresh,
 * its history forgotten too.  -1 with why in err. */
int		 store_reset(struct store *, char *err, size_t);
/* Reads the name's state and its history (h, or NULL) without a change;
 * 1 when there is no state yet, -1 with why in err (a corrupt state is
 * one; a corrupt history reads as none). */
int		 store_read(struct store *, struct share_state *,
		    struct store_history *h, char *err, size_t);
/* Closes the name's file, keeping the directory. */
void		 store_unname(struct store *);
void		 store_close(struct store *);

#endif
