/*
 * bench/redisping [-a] [-s SHA1] PORT N: N PINGs to Redis on
 * 127.0.0.1:PORT, one at a time, each waiting for its answer: the round
 * trip that every decision of --share on Redis makes, as the floor of its
 * cost.
 *
 * -a: the PINGs go two by two after an attempt, as retry's decisions do
 * (the record of one attempt, then the gate of the next): before each
 * pair, /bin/false is vforked, execed and waited for.  Less `spawnloop -v
 * N/2 /bin/false`, that is the round trip of a client that has just
 * waited for a process, to a server that has been idle meanwhile.
 *
 * -s SHA1: instead of PING, retry's script (loaded already), called as a
 * run with --share-budget 1000000 calls it: a record, then a gate, and so
 * on.  What retry adds to a decision is its own time less this one's.
 *
 * -t CAFILE: over TLS to localhost:PORT, the server's certificate
 * verified against CAFILE, each command one SSL_write and its answer
 * read by SSL_read, as retry does.  -p: the same socket code without TLS.
 * Their processor times differ by OpenSSL's own cost of an exchange, the
 * floor of what TLS can add to a decision.
 *
 * -r FILE (with -t): the session resumed from the ticket in FILE, when
 * there is one; a session that was not resumed is written to FILE (DER)
 * at the end, for the next.  Prints "resumed" or "full".
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

/* A connection of -t or -p: its socket, and its TLS session or NULL. */
struct raw {
	int	 fd;
	SSL	*ssl;
	redisReader *reader;
};

static void
die(const char *what)
{
	fprintf(stderr, "redisping: %s\n", what);
	ERR_print_errors_fp(stderr);
	exit(1);
}

/* The session in file, given to s; none when it cannot be read. */
static void
resume(SSL *s, const char *file)
{
	unsigned char buf[16384];
	const unsigned char *p = buf;
	SSL_SESSION *sess;
	FILE *f;
	size_t n;

	if (file == NULL || (f = fopen(file, "rb")) == NULL)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if ((sess = d2i_SSL_SESSION(NULL, &p, (long)n)) != NULL) {
		SSL_set_session(s, sess);
		SSL_SESSION_free(sess);
	}
}

/* s's session written to file, unless it was resumed. */
static void
keep(SSL *s, const char *file)
{
	unsigned char *der = NULL;
	SSL_SESSION *sess;
	FILE *f;
	int n;

	printf("%s\n", SSL_session_reused(s) ? "resumed" : "full");
	if (SSL_session_reused(s) || (sess = SSL_get1_session(s)) == NULL)
		return;
	if ((n = i2d_SSL_SESSION(sess, &der)) > 0 &&
	    (f = fopen(file, "wb")) != NULL) {
		fwrite(der, 1, (size_t)n, f);
		fclose(f);
	}
	OPENSSL_free(der);
	SSL_SESSION_free(sess);
}

static void
raw_open(struct raw *r, const char *port, const char *ca, const char *file)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	SSL_CTX *ctx;

	if (getaddrinfo("localhost", port, &hints, &ai) != 0)
		die("cannot look localhost up");
	if ((r->fd = socket(ai->ai_family, SOCK_STREAM, 0)) == -1 ||
	    connect(r->fd, ai->ai_addr, ai->ai_addrlen) == -1)
		die("cannot connect");
	freeaddrinfo(ai);
	if ((r->reader = redisReaderCreate()) == NULL)
		die("out of memory");
	r->ssl = NULL;
	if (ca == NULL)
		return;
	if ((ctx = SSL_CTX_new(TLS_client_method())) == NULL ||
	    SSL_CTX_load_verify_locations(ctx, ca, NULL) != 1)
		die("cannot make the TLS context");
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	if ((r->ssl = SSL_new(ctx)) == NULL || SSL_set_fd(r->ssl, r->fd) != 1 ||
	    SSL_set_tlsext_host_name(r->ssl, "localhost") != 1 ||
	    SSL_set1_host(r->ssl, "localhost") != 1)
		die("TLS setup failed");
	resume(r->ssl, file);
	if (SSL_connect(r->ssl) != 1)
		die("TLS handshake failed");
	SSL_CTX_free(ctx);
}

/* Sends the command and reads its answer, as one write and reads. */
static redisReply *
raw_ask(struct raw *r, int argc, const char **argv, const size_t *len)
{
	char *cmd, buf[16384];
	void *reply = NULL;
	long k;
	int n;

	if ((n = redisFormatCommandArgv(&cmd, argc, argv, len)) < 0)
		die("out of memory");
	k = r->ssl != NULL ? SSL_write(r->ssl, cmd, n) : write(r->fd, cmd,
	    (size_t)n);
	free(cmd);
	if (k != n)
		die("cannot send");
	while (reply == NULL) {
		k = r->ssl != NULL ? SSL_read(r->ssl, buf, sizeof(buf)) :
		    read(r->fd, buf, sizeof(buf));
		if (k <= 0 || redisReaderFeed(r->reader, buf, (size_t)k) !=
		    REDIS_OK || redisReaderGetReply(r->reader, &reply) !=
		    REDIS_OK)
			die("no answer");
	}
	return reply;
}

/* A record or a gate of a bare client, as retry words it; or a PING
 * (sha NULL). */
static redisReply *
decide(redisContext *c, struct raw *r, const char *sha, int record)
{
	const char *argv[] = { "EVALSHA", sha, "1", "retry:redisping:state",
	    record ? "record" : "gate", "1", "1000000000", "200", "0", "0",
	    "0", "0", "0", "-1", "", "1", "60000000" };
	const char *ping[] = { "PING" };
	const int argc = sha != NULL ? (int)(sizeof(argv) / sizeof(argv[0])) :
	    1;
	const char **words = sha != NULL ? argv : ping;
	size_t len[sizeof(argv) / sizeof(argv[0])];

	for (int i = 0; i < argc; i++)
		len[i] = strlen(words[i]);
	if (c != NULL)
		return redisCommandArgv(c, argc, words, len);
	return raw_ask(r, argc, words, len);
}

/* vforks, execs and waits for /bin/false. */
static void
attempt(void)
{
	pid_t pid;
	int st;

	if ((pid = vfork()) == 0) {
		execl("/bin/false", "false", (char *)NULL);
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &st, 0) == -1) {
		perror("redisping");
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	redisContext *c = NULL;
	redisReply *r;
	struct raw raw = { -1, NULL, NULL };
	const char *sha = NULL, *ca = NULL, *file = NULL;
	long n, i;
	int spawn = 0, plain = 0;

	for (;;) {
		if (argc > 1 && strcmp(argv[1], "-a") == 0) {
			spawn = 1;
			argc--, argv++;
		} else if (argc > 1 && strcmp(argv[1], "-p") == 0) {
			plain = 1;
			argc--, argv++;
		} else if (argc > 2 && strcmp(argv[1], "-s") == 0) {
			sha = argv[2];
			argc -= 2, argv += 2;
		} else if (argc > 2 && strcmp(argv[1], "-r") == 0) {
			file = argv[2];
			argc -= 2, argv += 2;
		} else if (argc > 2 && strcmp(argv[1], "-t") == 0) {
			ca = argv[2];
			argc -= 2, argv += 2;
		} else
			break;
	}
	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: redisping [-a] [-s SHA1] [-t CAFILE "
		    "[-r FILE] | -p] PORT N\n");
		return 2;
	}
	if (ca != NULL || plain)
		raw_open(&raw, argv[1], ca, file);
	else if ((c = redisConnect("127.0.0.1", atoi(argv[1]))) == NULL ||
	    c->err != 0) {
		fprintf(stderr, "redisping: %s\n", c != NULL ? c->errstr :
		    "out of memory");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (spawn && i % 2 == 0)
			attempt();
		r = decide(c, &raw, sha, i % 2 == 0);
		if (r == NULL || r->type == REDIS_REPLY_ERROR) {
			fprintf(stderr, "redisping: %s\n", r != NULL ? r->str :
			    c != NULL ? c->errstr : "no answer");
			return 1;
		}
		freeReplyObject(r);
	}
	if (c != NULL)
		redisFree(c);
	if (raw.ssl != NULL && file != NULL)
		keep(raw.ssl, file);
	return 0;
}
