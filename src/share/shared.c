/* The shared state in its store. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "duration.h"
#include "redis.h"
#include "shared.h"
#include "wait.h"

/* A run that a signal ends waits no longer for its last words. */
#define LAST_WORDS	NS_PER_SEC
#define SPEC_FILE_WAIT	(2 * NS_PER_SEC)

/* The first line of --share-store-file FILE, into spec: read without
 * blocking, so that a pipe's slow writer holds the run SPEC_FILE_WAIT at
 * most and a signal not at all.  0, or -1 with why in err. */
static int
spec_file(const char *path, char *spec, size_t sz, char *err, size_t errsz)
{
	const int64_t by = mono_ns() + SPEC_FILE_WAIT;
	const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC |
	    O_NOCTTY);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	const char *why = NULL;
	struct stat st = { 0 };
	char late[48], d[DURATION_BUFSZ];
	bool line = false;
	size_t len = 0;
	ssize_t n;

	/* A directory, a terminal or a device is no file of a URL. */
	if (fd != -1 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISFIFO(st.st_mode))
		why = "not a regular file or a pipe";
	while (fd != -1 && why == NULL && len < sz - 1 && !line) {
		if ((n = read(fd, spec + len, sz - 1 - len)) > 0) {
			line = memchr(spec + len, '\n', (size_t)n) != NULL;
			len += (size_t)n;
		} else if (n == 0)
			break;
		else if (errno != EAGAIN && errno != EINTR)
			why = strerror(errno);
		else if (signal_stop != 0)
			why = "a signal came";
		else if (mono_ns() >= by) {
			snprintf(late, sizeof(late), "no line within %s",
			    duration_format(SPEC_FILE_WAIT, d, sizeof(d)));
			why = late;
		}
		else
			(void)wait_until(&p, 1, by);
	}
	if (fd == -1)
		why = strerror(errno);
	else
		close(fd);
	spec[len] = '\0';
	if (why == NULL && !line && len == sz - 1)
		why = "the first line is too long";
	/* A pipe that no process writes to reads as empty. */
	if (why == NULL && len == 0)
		why = S_ISFIFO(st.st_mode) ? "a pipe that nothing was written "
		    "to (is its writer running?)" : "it is empty";
	if (why != NULL) {
		snprintf(err, errsz, "--share-store @%s: %s", path, why);
		explicit_bzero(spec, sz);
		return -1;
	}
	spec[strcspn(spec, "\r\n")] = '\0';
	return 0;
}

/* The store named by the options, the file or the environment. */
static int
resolve_spec(struct shared *sh, const struct shared_opts *c, char *err,
    size_t errsz)
{
	const char *env = getenv("RETRY_SHARE_STORE"), *why, *from;
	char spec[STOREURL_MAX + 1];

	if (c->store != NULL) {
		from = "--share-store";
		snprintf(spec, sizeof(spec), "%s", c->store);
	} else if (c->store_file != NULL) {
		from = "--share-store @FILE";
		if (spec_file(c->store_file, spec, sizeof(spec), err,
		    errsz) == -1) {
			/* A missing file is no missing store directory. */
			errno = EINVAL;
			return -1;
		}
	} else if (env != NULL && env[0] != '\0') {
		from = "$RETRY_SHARE_STORE";
		snprintf(spec, sizeof(spec), "%s", env);
	} else {
		sh->url.kind = STORE_FILE;
		sh->default_dir = true;
		return 0;
	}
	/* Only the command line is seen by every user. */
	if ((why = storeurl_parse(spec, c->store == NULL, &sh->url)) !=
	    NULL) {
		snprintf(err, errsz, "%s: %s", from, why);
		explicit_bzero(spec, sizeof(spec));
		errno = EINVAL;
		return -1;
	}
	explicit_bzero(spec, sizeof(spec));
	storeurl_show(&sh->url, sh->shown, sizeof(sh->shown));
	/* A build without Redis says so when a Redis store is named. */
	if (sh->url.kind != STORE_FILE && (why = redis_absent()) != NULL) {
		snprintf(err, errsz, "%s: %s: %s", from, sh->shown, why);
		explicit_bzero(&sh->url, sizeof(sh->url));
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* A decision, as a store makes it. */
struct decision {
	enum share_op	 op;
	const struct shared *sh;
	bool		 success;
	bool		 retry;
	int64_t		 asked;
	int64_t		 took;		/* a success's duration (ns), or -1 */
	struct share_answer a;
};

/*
 * What shared.c asks of a store, each kind in its own way; -1 with why in
 * err when it fails.  open makes no connection yet (errno as store_open
 * leaves it); decide makes one decision; list, read and reset do what
 * shared_names, shared_read and shared_reset say; locate says where a
 * name's state is, as a report names it.
 */
struct store_ops {
	int	(*open)(struct shared *, bool create, char *err, size_t);
	void	(*close)(struct shared *);
	int	(*decide)(struct shared *, struct decision *, char *err,
		    size_t);
	int	(*list)(struct shared *, char ***, size_t *,
		    void (*)(void *, const char *), void *, char *err, size_t);
	int	(*read)(struct shared *, const char *name,
		    struct share_state *, char *history, char *err, size_t);
	int	(*reset)(struct shared *, const char *name, char *err, size_t);
	void	(*locate)(const struct shared *, const char *name, char *,
		    size_t);
};

/* The file store's change of the state, under its lock, at one now. */
static void
apply_decision(struct share_state *s, int64_t now, void *p)
{
	struct decision *d = p;
	const struct share_rules *r = d->sh->rules;

	if (d->op == SHARE_GATE) {
		d->a.gate = share_gate(s, r, d->sh->me, now);
		if (d->a.gate.what == GATE_WAIT)
			d->a.gate.until = d->a.gate.until > now ?
			    d->a.gate.until - now : 0;
	} else if (d->op == SHARE_RECORD) {
		d->a.record = share_record(s, r, d->sh->me, d->success,
		    d->retry, d->asked >= 0 ? now + d->asked : 0, now);
		d->a.tokens = s->tokens;
	} else if (d->op == SHARE_HEDGE) {
		d->a.record = share_hedge(s, r, d->sh->me, now);
		d->a.tokens = s->tokens;
	} else
		share_leave(s, d->sh->me, now);
}

/* A decision before an attempt: the gate, or a retry's grant. */
static bool
before_attempt(const struct decision *d)
{
	return d->op == SHARE_GATE || d->retry;
}

/*
 * Whether a decision that grants no attempt (a result counted after the
 * last attempt or beside others, a probe let go) is not asked at all: the
 * store did not answer the run's last decision, and neither --budget nor
 * --deadline leaves time for it.  A store that did not answer is not
 * waited for again with a fresh timeout when nothing follows.
 */
static bool
not_asked(const struct shared *sh, const struct decision *d)
{
	return sh->faulty && !before_attempt(d) &&
	    (sh->end < 0 || mono_ns() >= sh->end);
}

/*
 * A store answers within --share-timeout, and a new connection to Redis
 * is made within --share-connect-timeout (span: the longer of the two);
 * every wait ends by --deadline too.  Before an attempt, half of what is
 * left of --budget (or of --deadline, if earlier) bounds them when that
 * is less than span, so that the attempt keeps the other half whatever the
 * store does.  A run's other decisions (its last words) may end it up to
 * span past --budget, and after a signal a second at most; when the store
 * did not answer the run's last decision, they end by --budget too.  The
 * bound (CLOCK_MONOTONIC ns), or -1 for span's alone; what: the bound as
 * a failure names it.
 */
static int64_t
budget_by(const struct shared *sh, const struct decision *d, int64_t span,
    const char **what)
{
	const int64_t now = mono_ns();
	const bool hard = sh->end >= 0 && sh->end == sh->hard;
	int64_t by = -1;

	*what = NULL;
	if (before_attempt(d) && sh->end >= 0 && (sh->end - now) / 2 < span) {
		*what = hard ? "half of what was left of --deadline" :
		    "half of what was left of --budget";
		return now + (sh->end - now) / 2;
	}
	if (sh->faulty && !before_attempt(d) && sh->end >= 0 &&
	    sh->end - now < span) {
		*what = hard ? "what was left of --deadline" :
		    "what was left of --budget";
		by = sh->end;
	} else if (sh->hard >= 0 && sh->hard - now < span) {
		*what = "what was left of --deadline";
		by = sh->hard;
	}
	if (signal_stop != 0 && span > LAST_WORDS && (by < 0 ||
	    now + LAST_WORDS < by)) {
		*what = "a second after a signal";
		by = now + LAST_WORDS;
	}
	return by;
}

/* The file store's deadline for its lock. */
static int64_t
lock_by(const struct shared *sh, const struct decision *d)
{
	const char *what;
	int64_t by = budget_by(sh, d, sh->timeout, &what);

	by = by >= 0 ? by : mono_ns() + sh->timeout;
	return sh->until >= 0 && sh->until < by ? sh->until : by;
}

/* The file store: a file per name in a directory (store.h). */
static int
open_file(struct shared *sh, bool create, char *err, size_t errsz)
{
	if (store_open(&sh->file, sh->default_dir ? NULL : sh->url.path,
	    create, err, errsz) == -1)
		return -1;
	snprintf(sh->shown, sizeof(sh->shown), "%s", sh->file.dir);
	if (create && sh->name != NULL && store_name(&sh->file, sh->name,
	    true, err, errsz) == -1) {
		store_close(&sh->file);
		return -1;
	}
	return 0;
}

static void
close_file(struct shared *sh)
{
	store_close(&sh->file);
}

static int
decide_file(struct shared *sh, struct decision *d, char *err, size_t errsz)
{
	struct store_history h = { .add = d->op == SHARE_RECORD &&
	    d->success ? d->took : -1 };
	int rc;

	sh->file.by = lock_by(sh, d);
	sh->file.ending = d->op == SHARE_LEAVE;
	if ((rc = store_update(&sh->file, sh->rules, wall_ns(), apply_decision,
	    d, true, &h, &d->a.corrupt, err, errsz)) == 0)
		memcpy(sh->history, h.text, sizeof(sh->history));
	return rc;
}

static int
list_file(struct shared *sh, char ***names, size_t *n,
    void (*fault)(void *, const char *), void *arg, char *err, size_t errsz)
{
	if (store_names(&sh->file, names, n) == -1) {
		snprintf(err, errsz, "%s: %s", sh->file.dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int
read_file(struct shared *sh, const char *name, struct share_state *s,
    char *history, char *err, size_t errsz)
{
	struct store_history h = { .add = -1 };
	int rc;

	if (store_name(&sh->file, name, false, err, errsz) == -1)
		return errno == ENOENT ? 1 : -1;
	sh->file.by = lock_by(sh, &(struct decision){ .op = SHARE_LEAVE });
	rc = store_read(&sh->file, s, &h, err, errsz);
	store_unname(&sh->file);
	if (history != NULL)
		memcpy(history, h.text, sizeof(h.text));
	return rc;
}

static int
reset_file(struct shared *sh, const char *name, char *err, size_t errsz)
{
	int rc;

	if (store_name(&sh->file, name, false, err, errsz) == -1)
		return errno == ENOENT ? 0 : -1;
	sh->file.by = lock_by(sh, &(struct decision){ .op = SHARE_LEAVE });
	rc = store_reset(&sh->file, err, errsz);
	store_unname(&sh->file);
	return rc;
}

static void
locate_file(const struct shared *sh, const char *name, char *where,
    size_t sz)
{
	snprintf(where, sz, "%s/%s", sh->shown, name);
}

/* Redis: a hash per name, changed by a script (redis.h). */
static int
open_redis(struct shared *sh, bool create, char *err, size_t errsz)
{
	redisconn_open(&sh->redis, &sh->url, sh->timeout, sh->connect_timeout);
	return 0;
}

static void
close_redis(struct shared *sh)
{
	redisconn_close(&sh->redis);
}

static int
decide_redis(struct shared *sh, struct decision *d, char *err, size_t errsz)
{
	sh->redis.by = budget_by(sh, d, sh->connect_timeout > sh->timeout ?
	    sh->connect_timeout : sh->timeout, &sh->redis.by_what);
	return redis_decide(&sh->redis, d->op, sh->name, sh->rules, sh->me,
	    d->success, d->retry, d->asked, -1, &d->a, err, errsz);
}

static int
list_redis(struct shared *sh, char ***names, size_t *n,
    void (*fault)(void *, const char *), void *arg, char *err, size_t errsz)
{
	return redis_names(&sh->redis, names, n, fault, arg, err, errsz);
}

static int
read_redis(struct shared *sh, const char *name, struct share_state *s,
    char *history, char *err, size_t errsz)
{
	if (history != NULL)
		history[0] = '\0';
	return redis_read(&sh->redis, name, s, err, errsz);
}

static int
reset_redis(struct shared *sh, const char *name, char *err, size_t errsz)
{
	return redis_reset(&sh->redis, name, err, errsz);
}

static void
locate_redis(const struct shared *sh, const char *name, char *where,
    size_t sz)
{
	char key[REDIS_KEY_MAX];

	redis_key(name, key, sizeof(key));
	snprintf(where, sz, "%s in %s", key, sh->shown);
}

static const struct store_ops file_ops = {
	.open = open_file, .close = close_file, .decide = decide_file,
	.list = list_file, .read = read_file, .reset = reset_file,
	.locate = locate_file,
};
static const struct store_ops redis_ops = {
	.open = open_redis, .close = close_redis, .decide = decide_redis,
	.list = list_redis, .read = read_redis, .reset = reset_redis,
	.locate = locate_redis,
};

/* Each kind of store that a URL names. */
static const struct store_ops *const kinds[] = {
	[STORE_FILE] = &file_ops,
	[STORE_REDIS_TCP] = &redis_ops,
	[STORE_REDIS_UNIX] = &redis_ops,
};

/*
 * A store that cannot be used now, for a run: it goes on without, with
 * --share-required ends as when the store is down, and asks no more.  A
 * refused store that the run named is a mistake to correct (-1); the
 * default one, refused, is what another user can plant in /tmp, and must
 * not deny a run its command.
 */
static int
cannot_use(struct shared *sh, bool create)
{
	if (!create || (errno == EPERM && !sh->default_dir))
		return -1;
	sh->on = sh->faulty = sh->unusable = true;
	return -2;
}

/* A line for the caller to say (news). */
static void tell(struct shared *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static void
tell(struct shared *sh, const char *fmt, ...)
{
	va_list ap;

	if (sh->nnews == SHARED_NEWS)
		return;
	va_start(ap, fmt);
	vsnprintf(sh->news[sh->nnews++], sizeof(sh->news[0]), fmt, ap);
	va_end(ap);
}

int64_t
shared_connect_timeout(const struct shared_opts *c)
{
	if (c->connect_timeout > 0)
		return c->connect_timeout;
	return c->timeout > SHARE_CONNECT_TIMEOUT ? c->timeout :
	    SHARE_CONNECT_TIMEOUT;
}

int
shared_open(struct shared *sh, const struct shared_opts *c, bool create,
    char *err, size_t errsz)
{
	memset(sh, 0, sizeof(*sh));
	sh->rules = c->rules;
	sh->name = c->name;
	sh->required = c->required;
	sh->timeout = c->timeout;
	sh->connect_timeout = shared_connect_timeout(c);
	sh->end = sh->hard = -1;
	sh->until = -1;
	sh->file.dirfd = sh->file.fd = -1;
	while (sh->me == 0)
		arc4random_buf(&sh->me, sizeof(sh->me));
	if (resolve_spec(sh, c, err, errsz) == -1)
		return -1;
	if (storeurl_warning(&sh->url) != NULL)
		tell(sh, "%s: %s", sh->shown, storeurl_warning(&sh->url));
	sh->ops = kinds[sh->url.kind];
	if (sh->ops->open(sh, create, err, errsz) == -1)
		return cannot_use(sh, create);
	sh->on = true;
	return 0;
}

void
shared_close(struct shared *sh)
{
	if (sh->on)
		sh->ops->close(sh);
	explicit_bzero(&sh->url, sizeof(sh->url));
	sh->on = false;
}

/* The shorter of the store's two waits: for an answer, and for a Redis
 * connection. */
static int64_t
shortest_wait(const struct shared *sh)
{
	return sh->ops == &redis_ops && sh->connect_timeout < sh->timeout ?
	    sh->connect_timeout : sh->timeout;
}

/*
 * Whether a decision asked at asked (CLOCK_MONOTONIC ns), when --budget
 * or --deadline bounded it by by (or -1), failed by a wait that ran out,
 * not by an answer (a refused connection, a server's error): it took the
 * shorter of the store's waits, or ran to that bound.
 */
static bool
waited_out(const struct shared *sh, int64_t asked, int64_t by)
{
	const int64_t now = mono_ns(), slack = NS_PER_MS;

	return now - asked >= shortest_wait(sh) - slack ||
	    (by >= 0 && now >= by - slack);
}

/* One decision in the store; a fault, a recovery or a corrupt state said
 * once. */
static enum shared_said
decide(struct shared *sh, struct decision *d)
{
	char err[1024], where[sizeof(sh->shown) + REDIS_KEY_MAX + 8];
	/* Last words at --deadline (an attempt it stopped) are tried
	 * without a wait: a free lock is taken, a command is sent. */
	const bool late = !before_attempt(d) && sh->hard >= 0 &&
	    mono_ns() >= sh->hard;

	const char *what;
	const int64_t asked = mono_ns();
	const int64_t by = budget_by(sh, d, shortest_wait(sh), &what);

	/* A store that refused is asked again at the next decision, which
	 * costs nothing; one that did not answer in time cost the run a
	 * wait, and is not waited for again in it; nor is one that could
	 * not be made, nor asked last words that no time is left for. */
	if (sh->unusable || sh->silent || not_asked(sh, d))
		return sh->required ? SHARED_DOWN : SHARED_UNSHARED;
	if (sh->ops->decide(sh, d, err, sizeof(err)) == -1) {
		/* A signal ends the run, or the deadline had: no fault of
		 * the store's. */
		if (signal_stop != 0 || late)
			return SHARED_UNSHARED;
		sh->silent = waited_out(sh, asked, by);
		if (!sh->faulty)
			tell(sh, "--share %s: %s; %s", sh->name,
			    err, sh->required ? (d->op == SHARE_RECORD &&
			    d->success ? "--share-required: the success stands; "
			    "the run ends" : "--share-required: giving up") :
			    sh->silent ? "going on without the shared state "
			    "for the rest of this run" : "going on without the "
			    "shared state until it answers");
		sh->faulty = true;
		return sh->required ? SHARED_DOWN : SHARED_UNSHARED;
	}
	if (sh->faulty)
		tell(sh, "--share %s: %s answers again",
		    sh->name, sh->shown);
	sh->faulty = false;
	if (d->a.corrupt && !sh->said_corrupt) {
		sh->ops->locate(sh, sh->name, where, sizeof(where));
		tell(sh, "--share %s: %s was not a shared state; "
		    "it starts afresh", sh->name, where);
	}
	sh->said_corrupt |= d->a.corrupt;
	return SHARED_ANSWERED;
}

enum shared_said
shared_gate(struct shared *sh, struct gate_answer *g)
{
	struct decision d = { .op = SHARE_GATE, .sh = sh, .asked = -1 };
	enum shared_said said;

	if (!sh->on)
		return SHARED_UNSHARED;
	if ((said = decide(sh, &d)) == SHARED_ANSWERED)
		*g = d.a.gate;
	return said;
}

enum shared_said
shared_record(struct shared *sh, bool success, bool retry, int64_t asked,
    int64_t took, struct record_answer *a, double *tokens)
{
	struct decision d = { .op = SHARE_RECORD, .sh = sh,
	    .success = success, .retry = retry, .asked = asked,
	    .took = took };
	enum shared_said said;

	if (!sh->on)
		return SHARED_UNSHARED;
	if ((said = decide(sh, &d)) == SHARED_ANSWERED) {
		*a = d.a.record;
		*tokens = d.a.tokens;
	}
	return said;
}

enum shared_said
shared_hedge(struct shared *sh, struct record_answer *a, double *tokens)
{
	struct decision d = { .op = SHARE_HEDGE, .sh = sh, .retry = true,
	    .asked = -1 };
	enum shared_said said;

	if (!sh->on)
		return SHARED_UNSHARED;
	if ((said = decide(sh, &d)) == SHARED_ANSWERED) {
		*a = d.a.record;
		*tokens = d.a.tokens;
	}
	return said;
}

void
shared_leave(struct shared *sh)
{
	struct decision d = { .op = SHARE_LEAVE, .sh = sh, .asked = -1 };

	if (sh->on)
		(void)decide(sh, &d);
}

int
shared_names(struct shared *sh, char ***names, size_t *n,
    void (*fault)(void *, const char *), void *arg, char *err, size_t errsz)
{
	return sh->ops->list(sh, names, n, fault, arg, err, errsz);
}

int
shared_read(struct shared *sh, const char *name, struct share_state *s,
    char *history, char *err, size_t errsz)
{
	return sh->ops->read(sh, name, s, history, err, errsz);
}

int
shared_reset(struct shared *sh, const char *name, char *err, size_t errsz)
{
	return sh->ops->reset(sh, name, err, errsz);
}

void
shared_end(struct shared *sh, int64_t t0, int64_t budget, int64_t deadline)
{
	const bool hard = deadline >= 0 && (budget < 0 || deadline <= budget);

	if (deadline >= 0)
		sh->hard = t0 + deadline;
	if (budget >= 0 || deadline >= 0)
		sh->end = hard ? sh->hard : t0 + budget;
}

void
shared_until(struct shared *sh, int64_t by, const char *what)
{
	sh->until = by;
	sh->until_what = what;
	sh->redis.by = by;
	sh->redis.by_what = what;
}
