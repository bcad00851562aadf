// ncurses with wide characters (ncursesw, Debian's libncurses-dev), for ReqRunUI only.
// Swift cannot import function-like macros (COLOR_PAIR, getmaxy, A_BOLD…): these inline wrappers are the
// part of the API that ReqRunUI uses.
#ifndef REQRUN_CNCURSES_SHIM_H
#define REQRUN_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <termios.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/// Columns a character takes on a terminal (POSIX `wcwidth`, declared here: glibc hides it without _XOPEN_SOURCE).
extern int wcwidth(wchar_t c);
static inline int reqrun_column_width(unsigned int c) { return wcwidth((wchar_t)c); }

/// Decoded keys (arrows as KEY_UP…) on the standard screen.
static inline void reqrun_keypad(void) { keypad(stdscr, TRUE); }

static inline int reqrun_rows(void) { return getmaxy(stdscr); }
static inline int reqrun_columns(void) { return getmaxx(stdscr); }
static inline int reqrun_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int reqrun_attr_bold(void) { return (int)A_BOLD; }
static inline int reqrun_attr_dim(void) { return (int)A_DIM; }
static inline int reqrun_attr_reverse(void) { return (int)A_REVERSE; }

/// Draws UTF-8 text at (y, x) with the attributes `attributes`; ncursesw decodes it in the current locale.
static inline void reqrun_put(int y, int x, const char *text, int attributes) {
    attrset(attributes);
    mvaddstr(y, x, text);
    attrset(A_NORMAL);
}

/// Clears from (y, x) to the end of that line.
static inline void reqrun_clear_to_eol(int y, int x) {
    move(y, x);
    clrtoeol();
}

/// One key: returns OK with a character, KEY_CODE_YES with a function key (KEY_UP, KEY_RESIZE…), or ERR
/// when `timeout` passed without one.
static inline int reqrun_read_key(unsigned int *key) {
    wint_t value = 0;
    int status = get_wch(&value);
    *key = (unsigned int)value;
    return status;
}

#endif
