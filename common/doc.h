/* One document writer: headings, paragraphs, lists, tables, figures, links and
 * verbatim blocks, written through one sink to HTML or Markdown.  A page (the
 * report, a probe's record page, compare's page, the bench table) is walked
 * once and the back end decides the markup, so the two formats cannot drift.
 *
 * Text is escaped by the back end: HTML entities in HTML; in Markdown '|' is
 * escaped inside tables, a '<' that would open a tag becomes "&lt;" and line
 * breaks are flattened, so any text is safe in a table cell.  Classes (`cls`: "num", "bad", "warn", "ok", "meta", "method", ...)
 * style HTML and are dropped in Markdown, where "bad" and "warn" spans become
 * bold.  Calls never fail; the caller checks the FILE when it commits it. */
#ifndef GP_DOC_H
#define GP_DOC_H

#include <stdio.h>

#include "gp_status.h"

typedef enum gp_doc_format { GP_DOC_MD, GP_DOC_HTML } gp_doc_format;

/* Inline span styles. */
typedef enum gp_doc_style {
    GP_DOC_PLAIN,
    GP_DOC_CODE,
    GP_DOC_STRONG,
    GP_DOC_EM,
    GP_DOC_BAD,  /* a failure: red in HTML, bold in Markdown */
    GP_DOC_WARN, /* a caution: amber in HTML, bold in Markdown */
    GP_DOC_OK,   /* all is well: green in HTML, plain in Markdown */
} gp_doc_style;

typedef struct gp_doc {
    FILE *f;
    gp_doc_format fmt;
    int blocks; /* blocks written: Markdown separates them by a blank line */
    int ncols;  /* of the open table */
    int cell;   /* cells written in the open row */
    int header; /* the open cell is a header cell */
    int span;   /* columns the open cell spans */
    int muted;  /* inside a Markdown nav bar: links are not written */
} gp_doc;

void gp_doc_init(gp_doc *d, FILE *f, gp_doc_format fmt);

/* HTML: the document head with `title` and inline `css` (may be NULL), and
 * its end.  Markdown: nothing. */
void gp_doc_begin(gp_doc *d, const char *title, const char *css);
void gp_doc_end(gp_doc *d);

/* A heading of level 1..4; `id` (may be NULL) is its HTML anchor. */
void gp_doc_heading(gp_doc *d, int level, const char *id, const char *text);

/* A paragraph: begin, spans, end. */
void gp_doc_para_begin(gp_doc *d, const char *cls);
void gp_doc_para_end(gp_doc *d);
/* A one-span paragraph. */
void gp_doc_para(gp_doc *d, const char *cls, const char *text);

/* A navigation bar of in-page links (gp_doc_link): <nav> in HTML; Markdown
 * has no anchors of its own, so nothing is written there until the end. */
void gp_doc_nav_begin(gp_doc *d);
void gp_doc_nav_end(gp_doc *d);

/* Inline text, escaped. */
void gp_doc_span(gp_doc *d, gp_doc_style style, const char *text);
void gp_doc_text(gp_doc *d, const char *text);
void gp_doc_textf(gp_doc *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A line break inside a cell or paragraph (Markdown: "; "). */
void gp_doc_break(gp_doc *d);
/* A link.  In Markdown an in-page link ("#...") is its text alone: the
 * anchors are HTML's. */
void gp_doc_link(gp_doc *d, const char *href, const char *text);

/* A bulleted list. */
void gp_doc_list_begin(gp_doc *d);
void gp_doc_item_begin(gp_doc *d, const char *cls);
void gp_doc_item_end(gp_doc *d);
void gp_doc_list_end(gp_doc *d);
/* A list of n plain-text items laid out `stride` bytes apart (a char[n][stride]
 * array such as a record's notes). */
void gp_doc_list_texts(gp_doc *d, const char *first, size_t stride, int n);

/* A table of ncols columns.  heads (ncols names, or NULL): the header row;
 * without one, Markdown writes an empty header and HTML none. */
void gp_doc_table_begin(gp_doc *d, int ncols, const char *const *heads);
/* The same with column alignment: align[i] 'r' right-aligns column i in
 * Markdown (numbers); anything else, or a NULL align, leaves it as is. */
void gp_doc_table_begin_aligned(gp_doc *d, int ncols, const char *const *heads, const char *align);
void gp_doc_row_begin(gp_doc *d);
/* A cell spanning `span` columns (1: one); cls "th" makes a header cell. */
void gp_doc_cell_begin(gp_doc *d, const char *cls, int span);
void gp_doc_cell_end(gp_doc *d);
void gp_doc_row_end(gp_doc *d);
void gp_doc_table_end(gp_doc *d);
/* A one-span cell. */
void gp_doc_cell(gp_doc *d, const char *cls, gp_doc_style style, const char *text);

/* A figure: in HTML, what `draw` writes inline (an <svg>) when draw is given,
 * else an <img> of `src`; in Markdown an image link to `src` with `alt`.
 * The caption follows as spans, up to gp_doc_figure_end.  draw's failure is
 * returned and leaves the figure open: the caller abandons the file. */
gp_status gp_doc_figure_begin(gp_doc *d, const char *src, const char *alt,
                              gp_status (*draw)(FILE *f, const void *arg), const void *arg);
void gp_doc_figure_end(gp_doc *d);

/* Text shown verbatim (a table file): <pre> in HTML, a fenced block longer
 * than any backtick run inside it in Markdown. */
void gp_doc_pre(gp_doc *d, const char *text);

#endif
