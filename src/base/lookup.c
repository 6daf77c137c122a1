/* A name looked up in a child process of its own (lookup.h). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"
#include "lookup.h"

/* The addresses kept of a name, at most: more than any caller tries. */
#define LOOKUP_MAX	16

/* One address as the child sends it. */
struct rec {
	int			 family, socktype, protocol;
	socklen_t		 len;
	struct sockaddr_storage	 addr;
};

/* What the child sends, in one write: PIPE_BUF holds it. */
struct answer {
	int		 rc;
	int		 n;
	struct rec	 recs[LOOKUP_MAX];
};

struct lookup {
	pid_t		 pid;
	int		 fd;	/* the pipe's end the answer comes on */
	size_t		 got;
	struct answer	 a;
};

/* An address and its node, allocated together. */
struct node {
	struct addrinfo		 ai;
	struct sockaddr_storage	 addr;
};

/* The answer for list, in a; a->n is how many of its addresses fit. */
static void
answer_of(struct answer *a, int rc, const struct addrinfo *list)
{
	a->rc = rc;
	a->n = 0;
	for (const struct addrinfo *p = list; rc == 0 && p != NULL &&
	    a->n < LOOKUP_MAX; p = p->ai_next) {
		struct rec *r = &a->recs[a->n];

		if (p->ai_addrlen > sizeof(r->addr))
			continue;
		r->family = p->ai_family;
		r->socktype = p->ai_socktype;
		r->protocol = p->ai_protocol;
		r->len = p->ai_addrlen;
		memcpy(&r->addr, p->ai_addr, p->ai_addrlen);
		a->n++;
	}
}

/* The addresses of a, in one block of linked nodes: 0, or an EAI_ code. */
static int
list_of(const struct answer *a, struct addrinfo **out)
{
	struct node *nodes;

	if (a->rc != 0)
		return a->rc;
	if (a->n <= 0)
		return EAI_NONAME;
	if ((nodes = calloc((size_t)a->n, sizeof(*nodes))) == NULL)
		return EAI_MEMORY;
	for (int i = 0; i < a->n; i++) {
		const struct rec *r = &a->recs[i];
		struct addrinfo *ai = &nodes[i].ai;

		ai->ai_family = r->family;
		ai->ai_socktype = r->socktype;
		ai->ai_protocol = r->protocol;
		ai->ai_addrlen = r->len;
		ai->ai_addr = (struct sockaddr *)&nodes[i].addr;
		memcpy(&nodes[i].addr, &r->addr, r->len);
		ai->ai_next = i + 1 < a->n ? &nodes[i + 1].ai : NULL;
	}
	*out = &nodes[0].ai;
	return 0;
}

/* The child: every signal stays blocked (no handler of retry's runs
 * here; SIGKILL ends it), it dies with retry, keeps only the pipe's end
 * and the three standard descriptors, and writes its answer once. */
static _Noreturn void
child(int w, const char *host, const char *port, const struct addrinfo *hints)
{
	struct answer a;
	struct addrinfo *list = NULL;
	int rc;

	compat_parent_death(SIGKILL);
	if (w > 3)
		compat_close_range(3, (unsigned)w - 1);
	compat_close_range((unsigned)w + 1, ~0U);
	rc = getaddrinfo(host, port, hints, &list);
	answer_of(&a, rc, list);
	if (write(w, &a, sizeof(a)) != (ssize_t)sizeof(a))
		_exit(1);
	_exit(0);
}

int
lookup_start(struct lookup **lp, const char *host, const char *port,
    const struct addrinfo *hints)
{
	sigset_t all, was;
	struct lookup *l;
	int fd[2], e;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return EAI_MEMORY;
	if (compat_pipe(fd, true) == -1) {
		free(l);
		return EAI_SYSTEM;
	}
	/* Blocked across the fork, so that no handler runs in the child. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &was);
	if ((l->pid = fork()) == 0)
		child(fd[1], host, port, hints);
	e = errno;
	sigprocmask(SIG_SETMASK, &was, NULL);
	(void)close(fd[1]);
	if (l->pid == -1) {
		(void)close(fd[0]);
		free(l);
		errno = e;
		return EAI_SYSTEM;
	}
	l->fd = fd[0];
	*lp = l;
	return 0;
}

int
lookup_fd(const struct lookup *l)
{
	return l->fd;
}

/* Its process reaped (it has ended, or been killed: no long wait), its
 * pipe closed, and l freed. */
static void
reap(struct lookup *l)
{
	while (waitpid(l->pid, NULL, 0) == -1 && errno == EINTR)
		;
	(void)close(l->fd);
	free(l);
}

bool
lookup_done(struct lookup *l, int *rc, struct addrinfo **out)
{
	ssize_t k;

	while ((k = read(l->fd, (char *)&l->a + l->got, sizeof(l->a) -
	    l->got)) > 0)
		l->got += (size_t)k;
	if (k == -1 && (errno == EAGAIN || errno == EINTR))
		return false;
	/* The end of the pipe: the child has written all, or died. */
	*rc = l->got == sizeof(l->a) ? list_of(&l->a, out) : EAI_FAIL;
	reap(l);
	return true;
}

void
lookup_cancel(struct lookup *l)
{
	(void)kill(l->pid, SIGKILL);
	reap(l);
}

int
lookup_numeric(const char *host, const char *port,
    const struct addrinfo *hints, struct addrinfo **out)
{
	struct addrinfo h = *hints, *list = NULL;
	struct answer a;
	int rc;

	h.ai_flags |= AI_NUMERICHOST;
	rc = getaddrinfo(host, port, &h, &list);
	answer_of(&a, rc, list);
	if (list != NULL)
		freeaddrinfo(list);
	return list_of(&a, out);
}

void
lookup_free(struct addrinfo *ai)
{
	/* The first node starts the block. */
	free(ai);
}
