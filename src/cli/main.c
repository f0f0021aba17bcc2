/* SPDX-License-Identifier: MIT */
/*
 * main.c - the damier multi-tool: one program, one subcommand per job.
 *
 * Owns what every command shares: the table of commands with their help
 * texts, -h/--help and --version, the exit statuses (0 done, 1 bad input,
 * 2 bad usage) and the helpers of cli.h that name bad input back with its
 * control characters escaped.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "cli/cli.h"

/* The Makefile passes `git describe`; a build without git says this. */
#ifndef DAMIER_VERSION
#define DAMIER_VERSION "0.1.0"
#endif

#define HELP_VARIANT                                                                     \
    "  --variant V        the variant, by its id (default international):\n"             \
    "                     'damier variants' lists every id, docs/variants.md the rules\n"
#define HELP_FEN                                                                         \
    "  --fen F            the position, as PDN FEN: W:W31-50:B1-20 (side to move, then\n" \
    "                     each colour's squares; K before a king); default: the start\n"
#define HELP_PLAY                                                                        \
    "  --play MOVES       play these moves first, blank-separated in the variant's\n"     \
    "                     notation (32-28 26x37, c3-d4 c3:e5), from --fen or the start\n"
#define HELP_HELP "  -h, --help         this help\n"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line in the overview */
    const char *help;    /* damier NAME --help */
} commands[] = {
    {"play", cmd_play, "play in the terminal, against the computer or a friend",
     "usage: damier play [OPTIONS]\n"
     "\n"
     "A game in the terminal, full screen, or line by line with --plain.\n"
     "\n" HELP_VARIANT
     "  --rules R          the rule preset: default (house rules) or official (the\n"
     "                     federation's draw rules); docs/variants.md gives both\n"
     "  --white P, --black P\n"
     "                     human or computer (default: White human, Black computer)\n"
     "  --level N          the computer's strength, 1 (weakest) to 10 (default 1):\n"
     "                     1-4 search 1 to 4 plies and choose at random among\n"
     "                     nearly best moves, making a beginner's mistakes (but\n"
     "                     never missing a shot); 5-8 search to a node count\n"
     "                     (100k, 300k, 1M, 3M), the same play on every machine;\n"
     "                     9 thinks 1 s a move; 10 thinks 2 s a move, or its\n"
     "                     share of the clock\n" HELP_FEN
     "  --time T           clocks for both sides (default: none):\n"
     "                       5         5 minutes each, sudden death\n"
     "                       5+3       5 minutes, plus 3 seconds a move (Fischer)\n"
     "                       90/40     40 moves in 90 minutes, then again\n"
     "                       90/40+30  the same, plus 30 seconds a move\n"
     "                       10/move   10 seconds for each move, unused time lost\n"
     "                     minutes and seconds may have decimals (0.5+1)\n"
     "  --plain            no full screen: a plain board and one prompt a line, moves\n"
     "                     read line by line from stdin (for scripts and pipes)\n"
     "  --seed N           seed of the computer's random choices: the same seed and\n"
     "                     level without --time replay the same game\n" HELP_HELP
     "\n"
     "In a game, type a move (32-28, 26x37, c3:e5, or just the two squares) or\n"
     "moves, undo, hint, flip, draw, resign, save FILE.pdn, load FILE.pdn, help, quit.\n"},
    {"moves", cmd_moves, "the legal moves of a position",
     "usage: damier moves [OPTIONS]\n"
     "\n"
     "The legal moves of a position, one a line.  Without --fen or --play, FENs\n"
     "are read from stdin, one a line, and each answer is written (and flushed)\n"
     "as soon as its line is read, followed by an empty line; a bad line is\n"
     "reported and the next line is still read (exit 1 at the end).\n"
     "\n" HELP_VARIANT HELP_FEN HELP_PLAY
     "  --json             one JSON object a position (docs/json.md): its moves, or\n"
     "                     the error of its line\n"
     "  --keep-duplicates  keep capture routes that have the same from, to and\n"
     "                     captured pieces (merged by default)\n"
     "  --reference        use the slow reference generator, not the fast kernels\n" HELP_HELP},
    {"perft", cmd_perft, "count the leaves of the move tree",
     "usage: damier perft [OPTIONS] DEPTH\n"
     "\n"
     "Counts the leaves of the move tree DEPTH plies deep (0 to 30) and prints\n"
     "\"perft DEPTH: N nodes in S s, R M nodes/s\".\n"
     "\n" HELP_VARIANT HELP_FEN HELP_PLAY
     "  --divide           first one line a legal move, \"MOVE COUNT\", COUNT being\n"
     "                     the leaves below that move (flushed as each is done);\n"
     "                     the counts add up to the total\n"
     "  --keep-duplicates  count every capture route: by default routes with the\n"
     "                     same from, to and captured pieces are merged into one\n"
     "                     move (the rules' count); kept is DCTL's convention\n"
     "  --every-landing    also count one route per square a king may land on when\n"
     "                     it goes straight on after a capture (the Turkish KISH\n"
     "                     counts); implies --keep-duplicates\n"
     "  --reference        use the slow reference generator, not the fast kernels,\n"
     "                     to cross-check them\n" HELP_HELP
     "\n"
     "tests/perft/ lists published counts with their sources.\n"},
    {"pdn", cmd_pdn, "replay PDN games; write them as PDN, FEN or JSON",
     "usage: damier pdn check [--variant V] FILE...\n"
     "       damier pdn convert [--variant V] --to pdn|fen|json FILE...\n"
     "\n"
     "check replays every game and prints one line a game, \"FILE:game N (White -\n"
     "Black): ok, M moves\" or \"FILE:game N (...): line L: reason\", then a summary\n"
     "line \"pdn check: F files, G games, M moves, X failed\".  convert writes every\n"
     "good game as normalised PDN, as its final FEN (one line each), or as JSON\n"
     "(one object a line, docs/json.md); bad games go to stderr (and, with json,\n"
     "into the output as error objects).  Each line is flushed as it is written.\n"
     "FILE - is standard input.  Exit 1 when a file or a game fails.\n"
     "\n"
     "  --variant V        the variant of games whose tags name none; without it the\n"
     "                     first variant that replays the whole game is taken, and\n"
     "                     check says so ('damier variants' lists the ids)\n"
     "  --to F             convert to pdn, fen or json\n" HELP_HELP},
    {"variants", cmd_variants, "list every variant and its rules",
     "usage: damier variants [--markdown]\n"
     "\n"
     "Every variant Damier plays: id, name, board, who moves first, its rules.\n"
     "\n"
     "  --markdown         the long form, with both rule presets (docs/variants.md)\n" HELP_HELP},
    {"bench", cmd_bench, "perft and search speed",
     "usage: damier bench [search] [--depth-delta N] [--hash MB]\n"
     "       damier bench perft [--variant V] [--depth N]\n"
     "\n"
     "perft: perft from each variant's start to a fixed depth, one line a variant\n"
     "(flushed as each is done): depth, leaves, seconds, M leaves/s.\n"
     "bench search (the default): the engine searches every variant's start and a\n"
     "few middlegames to fixed depths; the total node count is the search's\n"
     "signature, which every commit that changes the engine quotes as Bench: N.\n"
     "\n"
     "  --variant V        perft: only this variant ('damier variants' lists them)\n"
     "  --depth N          perft: this depth (1 to 30) for every variant\n"
     "  --depth-delta N    search: add N (-20 to 20) to every depth\n"
     "  --hash MB          search: the transposition table size (1 to 4096)\n" HELP_HELP},
    {"hub", cmd_hub, "the Hub protocol, for draughts GUIs and bots",
     "usage: damier hub\n"
     "\n"
     "Damier as an engine speaking Hub version 2 (Scan's protocol) on stdin and\n"
     "stdout: the Hub GUI, lidraughts' analysis, pydraughts and lidraughts-bot use\n"
     "it.  Everything is set through the protocol: hub (id, the parameters: variant\n"
     "with every variant id, threads, tt-size in MB, bb-size, ponder, book), then\n"
     "set-param, init; pos pos=<position> [moves=\"...\"] or pos start; level depth=,\n"
     "nodes=, move-time=, [moves=] time= [inc=] or infinite; go think, ponder or\n"
     "analyze, answered by info lines and one done move= ponder=; stop, ponder-hit,\n"
     "ping, new-game, quit.  Positions and moves are numbered squares in every\n"
     "variant (b8 = 1 on the algebraic 8x8 boards).  The end of input quits.\n"
     "With book=true, go think answers a position of the built-in opening book at\n"
     "once with one of its moves (damier book); analysis never uses the book.\n" HELP_HELP},
    {"dxp", cmd_dxp, "engine against engine over DamExchange (DXP)",
     "usage: damier dxp (--listen [ADDR:]PORT | --connect HOST:PORT) [OPTIONS]\n"
     "\n"
     "Plays over a TCP connection with the DamExchange protocol (version 01), as\n"
     "Scan, Moby Dam and Kingsrow do.  One side listens, the other connects; the\n"
     "side given --games proposes the games (GAMEREQ), its colour alternating from\n"
     "White, the other follows.  A log line says what happens, on stderr.\n"
     "\n"
     "  --listen [ADDR:]PORT  wait for the peer (loopback unless ADDR is given;\n"
     "                     port 0: any free one, printed; DXP's own is 27531)\n"
     "  --connect HOST:PORT   call the peer\n"
     "  --games N          propose N games\n"
     "  --time MIN         proposer: minutes of thinking time for each side (default 5)\n"
     "  --moves M          proposer: in that time, M moves (default 0: the game)\n"
     "  --fen F            proposer: start from this position (GAMEREQ set-up)\n"
     HELP_VARIANT
     "  --level N          Damier's level, 1 to 10 (default 10: its share of the clock)\n"
     "  --pdn FILE         append every game to FILE as PDN\n" HELP_HELP},
    {"match", cmd_match, "engines against each other, with an Elo and an SPRT",
     "usage: damier match --engine SPEC --engine SPEC [OPTIONS]\n"
     "\n"
     "Plays the first engine against the second in colour-reversed pairs of games\n"
     "from an opening set, every move checked legal and the variant's draw rules\n"
     "applied, and prints after each game the wins, draws and losses of the first,\n"
     "its score and Elo difference with the 95% interval (and the SPRT's ratio);\n"
     "at the end the same from the colour-reversed pairs (each pair's points).\n"
     "SPEC is 'damier [level=N] [hash=MB] [name=X]' (Damier in this process),\n"
     "'hub:COMMAND' (any Hub engine, another Damier build: 'hub:/path/damier hub')\n"
     "or 'dxp:HOST:PORT' (an engine waiting for DXP games there, e.g. 'damier dxp\n"
     "--listen 27531' or Scan in DXP mode; with --tc, one game at a time).\n"
     "\n" HELP_VARIANT
     "  --rules R          default or official\n"
     "  --games N          at most N games (default 2), rounded up to pairs\n"
     "  --nodes N          a node budget for every move (the same on every machine)\n"
     "  --tc T             a clock instead, as play --time (5+3: 5 min + 3 s)\n"
     "  --concurrency K    games at once (default 1)\n"
     "  --openings FILE    the opening set (default data/openings/VARIANT.txt: the\n"
     "                     ACF 3-move deck for English, generated sets otherwise)\n"
     "  --pdn FILE         write every game to FILE; a match run again with the same\n"
     "                     FILE goes on where it stopped\n"
     "  --sprt E0,E1[,A,B] stop once the SPRT decides H0 (elo E0) or H1 (elo E1),\n"
     "                     error rates A and B (default 0.05)\n"
     "  --max-plies N      adjudicate a draw after N plies (default 600)\n" HELP_HELP},
    {"openings", cmd_openings, "make a balanced opening set for damier match",
     "usage: damier openings --variant V [--count N] [--plies P] [--seed S]\n"
     "                       [--tries T] [--results G [--game-nodes K] [--band L-H]]\n"
     "\n"
     "Writes N openings (default 100) of P plies (default 6), one a line: random\n"
     "walks from the start, reproducible from S, each kept when a short search\n"
     "finds it within a quarter of a man and its position is new.  With\n"
     "--results, a walk must also pass a test of games: the engine plays it out\n"
     "G times against itself at K nodes a move (choosing at random among the\n"
     "moves within 0.1 man for the first ten plies, so that the games differ),\n"
     "and keeps it when White scores from L% to H% (for a variant whose start\n"
     "one side wins in the long run although the search finds it level).  It\n"
     "stops after T walks for each opening wanted, found or not, and says so.\n"
     "\n"
     "  --variant V        the variant, by its id (required): 'damier variants'\n"
     "                     lists every id\n"
     "  --count N          openings wanted (default 100)\n"
     "  --plies P          plies of each (default 6)\n"
     "  --seed S           the random walks and games (default 1)\n"
     "  --tries T          walks made for each opening wanted, at most (default 50)\n"
     "  --results G        games played out from each walk the search finds level\n"
     "                     (default none: the search alone decides); a line on\n"
     "                     stderr for each walk played out\n"
     "  --game-nodes K     with --results: nodes a move in those games (default 10000)\n"
     "  --band L-H         with --results: White's score kept, in percent (default\n"
     "                     25-75); the set ends with White's score over its games\n" HELP_HELP},
    {"book", cmd_book, "build or read an opening book",
     "usage: damier book build --variant V [--nodes N] [--plies P] [--margin M]\n"
     "                         [--lines K] [--positions K] [--out FILE]\n"
     "       damier book show --variant V [--file FILE] [--fen F] [--moves M]\n"
     "\n"
     "build analyses the start position and, breadth first, every position the\n"
     "good moves lead to (a search of N nodes each, the best K moves scored), and\n"
     "keeps every move within M of the best (a man is 100) up to P plies or K\n"
     "positions, in FILE (default data/books/V.dmb, which the build embeds; the\n"
     "file says how it was made).  The same options give the same book on every\n"
     "machine.  From level 5 the computer plays its book's moves within 0.10 of\n"
     "the best, chosen at random; hints, analysis and damier match do not.\n"
     "show prints the book moves of a position (default the start), best first,\n"
     "with their scores in men for the side to move.\n"
     "\n" HELP_VARIANT
     "  --nodes N          build: the search of each position (default 100000)\n"
     "  --plies P          build: how deep the book goes (default 8)\n"
     "  --margin M         build: moves kept within M of the best (default 15)\n"
     "  --lines K          build: moves scored in each position (default 6)\n"
     "  --positions K      build: at most K positions (default 5000)\n"
     "  --out FILE         build: where to write it\n"
     "  --file FILE        show: this book instead of the built-in one\n" HELP_FEN
     "  --moves M          show: moves played from the position first\n" HELP_HELP},
    {"analyse", cmd_analyse, "the engine's analysis of a position",
     "usage: damier analyse [OPTIONS]\n"
     "\n"
     "Searches one position and prints a line per finished iteration (and per new\n"
     "best line within one), flushed at once, then the result:\n"
     "  depth 6 seldepth 11 multipv 1 score +0.25 nodes 10408 nps 2081600 time 5 pv 32-28 ...\n"
     "  best 32-28 ponder 18-23 score +0.12 depth 14\n"
     "Scores are in men for the side to move (+0.25); a decided game reads win-in-N\n"
     "or loss-in-N, N plies (half-moves) to its end; lowerbound marks the score of\n"
     "an unfinished iteration's best move.  time is in milliseconds.\n"
     "\n" HELP_VARIANT HELP_FEN
     "  --moves M          moves played from the position first (blank-separated, in\n"
     "                     the variant's notation); they are the game's history, so\n"
     "                     a repetition is seen\n"
     "  --time S           search S seconds (default: 5 seconds)\n"
     "  --depth D          search to depth D instead\n"
     "  --nodes N          search N nodes instead\n"
     "  --multipv K        the K best moves, each with its own score and line (1-16)\n" HELP_HELP},
    {"serve", cmd_serve, "the web app: play in the browser, over HTTP and WebSocket",
     "usage: damier serve [--listen ADDR:PORT] [--db FILE|URL] [--engine-threads N] [--web DIR]\n"
     "                    [--max-games N] [--games-per-minute N] [--max-per-address N]\n"
     "                    [--node NAME --redis URL [--lease-seconds N] [--no-engine]]\n"
     "\n"
     "Serves the browser app and its API (docs/api.md) until interrupted, and prints\n"
     "where: Damier is at http://127.0.0.1:8080/.  Every game, move, clock reading\n"
     "and result is in the database before anyone hears of it; a restarted server\n"
     "resumes every unfinished game (each side with the time it had at its last\n"
     "committed move: the time the server was down is not charged).  GET /healthz\n"
     "answers 200 while it runs, GET /readyz 200 while its database answers too.\n"
     "\n"
     "  --listen ADDR:PORT  where to listen (default 127.0.0.1:8080; port 0: any free\n"
     "                     port, the address line says which)\n"
     "  --db FILE          an SQLite database (default damier.db, created if missing)\n"
     "  --db URL           or PostgreSQL: postgresql://USER:PASSWORD@HOST:PORT/DBNAME\n"
     "                     (libpq's URL; its tables made at start; docs/deploy.md)\n"
     "  --engine-threads N  threads searching for the computer players, hints and\n"
     "                     analyses (default 2)\n"
     "  --web DIR          the static files (default: the repository's web/)\n"
     "  --node NAME --redis URL  one of several nodes on one PostgreSQL database,\n"
     "                     joined by Redis (redis://HOST:PORT): any node serves any\n"
     "                     game, its owner plays it (docs/deploy.md)\n"
     "  --lease-seconds N  how long a node's hold on its games outlives it (default 10)\n"
     "  --no-engine        a node that leaves its computer games to nodes with one\n"
     "  --max-games N      unfinished games held at once (default 10000; 0: any);\n"
     "                     a new game past it is refused (503)\n"
     "  --games-per-minute N  new games one address may start in a minute (default\n"
     "                     30; 0: any); more are refused (429)\n"
     "  --max-per-address N  connections one client address may hold at once; more\n"
     "                     are answered 429 (default 64; 0: any, for load tests)\n" HELP_HELP},
    {"egdb", cmd_egdb, "build, check and probe the endgame tables",
     "usage: damier egdb build --variant V --pieces N [--dir D] [--threads N]\n"
     "       damier egdb verify --variant V [--pieces N] [--dir D] [--threads N]\n"
     "       damier egdb probe --variant V --fen F [--dir D]\n"
     "       damier egdb info --variant V [--dir D]\n"
     "\n"
     "Endgame tables: the value (win, draw or loss, with the plies to the end) of\n"
     "every position of few pieces where no capture is pending, one file per\n"
     "material, built by retrograde analysis (docs/egdb.md).  The values ignore\n"
     "the draw rules that count moves.  build makes every missing table up to N\n"
     "pieces, smaller first, with the time of each; verify checks every stored value\n"
     "against its successors (exit 1 if one is wrong); probe prints the value of\n"
     "one position; info lists the tables with their sizes and W/D/L counts.\n"
     "Frisian, Frysk!, Parachute and Hawaiian are not supported.\n"
     "\n"
     "  --variant V        the variant ('damier variants' lists them)\n"
     "  --pieces N         build: tables of 2 to N pieces (N up to 8); verify: only\n"
     "                     those of at most N\n"
     "  --fen F            probe: the position\n"
     "  --threads N        build, verify: threads to share the work (1 to 64;\n"
     "                     default one per core); the files are the same\n"
     "  --dir D            the tables' root folder (D/VARIANT/); default\n"
     "                     $DAMIER_EGDB_DIR, else ~/.cache/damier/egdb\n" HELP_HELP},
    {"version", NULL, "print the version", "usage: damier version (or damier --version)\n"},
};

enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *out)
{
    fprintf(out, "usage: damier COMMAND [OPTIONS]   (damier COMMAND --help for its options)\n"
                 "       damier --version\n\ncommands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("damier: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

const char *cli_quote(const char *text)
{
    /* Four buffers in turn, so one message may quote up to four texts. */
    static char bufs[4][TEXT_ESCAPED_SIZE(256)];
    static int next;
    char *out = bufs[next++ % 4];
    size_t len = strlen(text);
    text_escape(text, len, out, sizeof bufs[0]);
    if (len > 256)
        strcat(out, "...");
    return out;
}

int cli_unknown_option(const char *command, const char *option)
{
    cli_error("%s: unknown option '%s' (see 'damier %s --help')", command, cli_quote(option),
              command);
    return CLI_USAGE;
}

int cli_number(const char *command, const char *option, const char *text, int min, int max,
               int *out)
{
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (end == text || *end || errno || n < min || n > max) {
        cli_error("%s: %s is a number from %d to %d, not '%s'", command, option, min, max,
                  cli_quote(text));
        return -1;
    }
    *out = (int)n;
    return 0;
}

const dm_variant *cli_variant(const char *id)
{
    const dm_variant *v = dm_variant_by_id(id);
    if (!v)
        cli_error("unknown variant '%s' (see 'damier variants')", cli_quote(id));
    return v;
}

int cli_position(const dm_variant *v, const char *fen, dm_position *pos)
{
    dm_error err;
    if (!fen) {
        dm_position_start(v, pos);
        return 0;
    }
    if (dm_fen_parse(v, fen, pos, &err) == 0)
        return 0;
    cli_error("%s", err.msg);
    return CLI_BAD_INPUT;
}

static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

static int version(void)
{
    printf("damier %s\n", DAMIER_VERSION);
    return CLI_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (is_help(name) || strcmp(name, "help") == 0) {
        /* damier help COMMAND is damier COMMAND --help. */
        if (argc < 3 || name[0] == '-') {
            usage(stdout);
            return CLI_OK;
        }
        name = argv[2];
        argc = 3;
        argv[2] = "--help";
        argv[1] = (char *)name;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
        return version();
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        for (int a = 2; a < argc; a++)
            if (is_help(argv[a])) {
                fputs(commands[i].help, stdout);
                return CLI_OK;
            }
        if (!commands[i].run) {
            if (argc > 2) {
                cli_error("version: unexpected argument '%s'", cli_quote(argv[2]));
                return CLI_USAGE;
            }
            return version();
        }
        return commands[i].run(argc - 2, argv + 2);
    }
    if (name[0] == '-')
        cli_error("unknown option '%s' (see 'damier --help')", cli_quote(name));
    else
        cli_error("unknown command '%s' (see 'damier --help')", cli_quote(name));
    return CLI_USAGE;
}
