#include "doc.h"

#include <stdarg.h>
#include <string.h>

#include "svg.h"
#include "utf8.h"

static int html(const gp_doc *d)
{
    return d->fmt == GP_DOC_HTML;
}

/* Markdown text: '|' escaped inside a table (it would end the cell), '<'
 * as an entity where GitHub would take it for a tag ("<a", "</", "<!"),
 * line breaks flattened. */
static void md_escape(FILE *f, const char *s, int in_table)
{
    for (; s && *s; s++) {
        char next = s[1];
        if (*s == '|' && in_table)
            fputs("\\|", f);
        else if (*s == '<' && ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '/' ||
                               next == '!' || next == '?'))
            fputs("&lt;", f);
        else if (*s == '\n' || *s == '\r' || (unsigned char)*s < 0x20)
            fputc(' ', f);
        else if ((unsigned char)*s >= 0x7f)
            s += gp_utf8_put(f, s) - 1;
        else
            fputc(*s, f);
    }
}

static void esc(gp_doc *d, const char *s)
{
    if (html(d))
        gp_xml_escape(d->f, s ? s : "");
    else
        md_escape(d->f, s, d->ncols > 0);
}

static void class_attr(gp_doc *d, const char *cls)
{
    if (cls && cls[0])
        fprintf(d->f, " class=\"%s\"", cls);
}

/* Markdown blocks are separated by one blank line. */
static void block(gp_doc *d)
{
    if (!html(d) && d->blocks)
        fputc('\n', d->f);
    d->blocks++;
}

void gp_doc_init(gp_doc *d, FILE *f, gp_doc_format fmt)
{
    memset(d, 0, sizeof *d);
    d->f = f;
    d->fmt = fmt;
}

void gp_doc_begin(gp_doc *d, const char *title, const char *css)
{
    if (!html(d))
        return;
    fprintf(d->f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    esc(d, title);
    fprintf(d->f, "</title>\n");
    if (css)
        fprintf(d->f, "<style>%s</style>\n", css);
    fprintf(d->f, "</head>\n<body>\n");
}

void gp_doc_end(gp_doc *d)
{
    if (html(d))
        fprintf(d->f, "</body>\n</html>\n");
}

void gp_doc_heading(gp_doc *d, int level, const char *id, const char *text)
{
    level = level < 1 ? 1 : level > 4 ? 4 : level;
    block(d);
    if (html(d)) {
        fprintf(d->f, "<h%d", level);
        if (id) {
            fprintf(d->f, " id=\"");
            esc(d, id);
            fputc('"', d->f);
        }
        fputc('>', d->f);
        esc(d, text);
        fprintf(d->f, "</h%d>\n", level);
    } else {
        fprintf(d->f, "%.*s ", level, "####");
        esc(d, text);
        fputc('\n', d->f);
    }
}

void gp_doc_para_begin(gp_doc *d, const char *cls)
{
    block(d);
    if (html(d)) {
        fprintf(d->f, "<p");
        class_attr(d, cls);
        fputc('>', d->f);
    }
}

void gp_doc_para_end(gp_doc *d)
{
    fprintf(d->f, html(d) ? "</p>\n" : "\n");
}

void gp_doc_para(gp_doc *d, const char *cls, const char *text)
{
    gp_doc_para_begin(d, cls);
    gp_doc_text(d, text);
    gp_doc_para_end(d);
}

void gp_doc_nav_begin(gp_doc *d)
{
    if (html(d))
        fprintf(d->f, "<nav>");
    else
        d->muted++;
}

void gp_doc_nav_end(gp_doc *d)
{
    if (html(d))
        fprintf(d->f, "</nav>\n");
    else if (d->muted > 0)
        d->muted--;
}

void gp_doc_span(gp_doc *d, gp_doc_style style, const char *text)
{
    static const char *const open_html[] = {"", "<code>", "<b>", "<em>", "<span class=\"bad\">",
                                            "<span class=\"warn\">", "<span class=\"ok\">"};
    static const char *const close_html[] = {"", "</code>", "</b>", "</em>", "</span>", "</span>", "</span>"};
    static const char *const mark_md[] = {"", "`", "**", "*", "**", "**", ""};
    if ((int)style < 0 || style > GP_DOC_OK)
        style = GP_DOC_PLAIN;
    if (html(d)) {
        fputs(open_html[style], d->f);
        esc(d, text);
        fputs(close_html[style], d->f);
    } else if (style == GP_DOC_CODE) {
        /* Inside a code span Markdown takes no escapes but the table's '\|'. */
        fputc('`', d->f);
        for (const char *s = text; s && *s; s++)
            if (*s == '|')
                fputs("\\|", d->f);
            else if ((unsigned char)*s >= 0x7f)
                s += gp_utf8_put(d->f, s) - 1;
            else
                fputc(*s == '\n' || *s == '\r' || *s == '`' || (unsigned char)*s < 0x20 ? ' ' : *s, d->f);
        fputc('`', d->f);
    } else {
        fputs(mark_md[style], d->f);
        esc(d, text);
        fputs(mark_md[style], d->f);
    }
}

void gp_doc_text(gp_doc *d, const char *text)
{
    gp_doc_span(d, GP_DOC_PLAIN, text);
}

void gp_doc_textf(gp_doc *d, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    gp_doc_text(d, buf);
}

void gp_doc_break(gp_doc *d)
{
    fputs(html(d) ? "<br>" : "; ", d->f);
}

void gp_doc_link(gp_doc *d, const char *href, const char *text)
{
    if (d->muted)
        return;
    if (html(d)) {
        fprintf(d->f, "<a href=\"");
        esc(d, href);
        fprintf(d->f, "\">");
        esc(d, text);
        fprintf(d->f, "</a>");
    } else if (href[0] == '#') {
        esc(d, text);
    } else {
        fputc('[', d->f);
        esc(d, text);
        fprintf(d->f, "](%s)", href);
    }
}

void gp_doc_list_begin(gp_doc *d)
{
    block(d);
    if (html(d))
        fprintf(d->f, "<ul>\n");
}

void gp_doc_item_begin(gp_doc *d, const char *cls)
{
    if (html(d)) {
        fprintf(d->f, "<li");
        class_attr(d, cls);
        fputc('>', d->f);
    } else {
        fputs("- ", d->f);
    }
}

void gp_doc_item_end(gp_doc *d)
{
    fputs(html(d) ? "</li>\n" : "\n", d->f);
}

void gp_doc_list_end(gp_doc *d)
{
    if (html(d))
        fprintf(d->f, "</ul>\n");
}

void gp_doc_list_texts(gp_doc *d, const char *first, size_t stride, int n)
{
    gp_doc_list_begin(d);
    for (int i = 0; i < n; i++) {
        gp_doc_item_begin(d, NULL);
        gp_doc_text(d, first + (size_t)i * stride);
        gp_doc_item_end(d);
    }
    gp_doc_list_end(d);
}

void gp_doc_table_begin(gp_doc *d, int ncols, const char *const *heads)
{
    gp_doc_table_begin_aligned(d, ncols, heads, NULL);
}

void gp_doc_table_begin_aligned(gp_doc *d, int ncols, const char *const *heads, const char *align)
{
    block(d);
    d->ncols = ncols;
    if (html(d)) {
        fprintf(d->f, "<table>\n");
        if (heads) {
            fprintf(d->f, "<tr>");
            for (int i = 0; i < ncols; i++) {
                fprintf(d->f, "<th>");
                esc(d, heads[i]);
                fprintf(d->f, "</th>");
            }
            fprintf(d->f, "</tr>\n");
        }
        return;
    }
    fputc('|', d->f);
    for (int i = 0; i < ncols; i++) {
        fputc(' ', d->f);
        esc(d, heads ? heads[i] : "");
        fputs(heads ? " |" : "|", d->f);
    }
    fputs("\n|", d->f);
    size_t nalign = align ? strlen(align) : 0;
    for (int i = 0; i < ncols; i++)
        fputs((size_t)i < nalign && align[i] == 'r' ? " ---: |" : " --- |", d->f);
    fputc('\n', d->f);
}

void gp_doc_row_begin(gp_doc *d)
{
    d->cell = 0;
    fputs(html(d) ? "<tr>" : "|", d->f);
}

void gp_doc_cell_begin(gp_doc *d, const char *cls, int span)
{
    span = span < 1 ? 1 : span;
    d->header = cls && !strcmp(cls, "th");
    d->cell += span;
    if (html(d)) {
        fprintf(d->f, "<%s", d->header ? "th" : "td");
        if (!d->header)
            class_attr(d, cls);
        if (span > 1)
            fprintf(d->f, " colspan=\"%d\"", span);
        fputc('>', d->f);
    } else {
        fputc(' ', d->f);
    }
    d->span = span;
}

void gp_doc_cell_end(gp_doc *d)
{
    if (html(d))
        fprintf(d->f, "</%s>", d->header ? "th" : "td");
    else /* the spanned columns stay empty in Markdown */
        for (int i = 0; i < d->span; i++)
            fputs(" |", d->f);
}

void gp_doc_row_end(gp_doc *d)
{
    fputs(html(d) ? "</tr>\n" : "\n", d->f);
}

void gp_doc_table_end(gp_doc *d)
{
    if (html(d))
        fprintf(d->f, "</table>\n");
    d->ncols = 0;
}

void gp_doc_cell(gp_doc *d, const char *cls, gp_doc_style style, const char *text)
{
    gp_doc_cell_begin(d, cls, 1);
    gp_doc_span(d, style, text);
    gp_doc_cell_end(d);
}

gp_status gp_doc_figure_begin(gp_doc *d, const char *src, const char *alt,
                              gp_status (*draw)(FILE *f, const void *arg), const void *arg)
{
    block(d);
    if (!html(d)) {
        fputs("![", d->f);
        esc(d, alt);
        fprintf(d->f, "](%s)\n\n", src);
        return gp_ok();
    }
    fprintf(d->f, "<figure>\n");
    if (draw) {
        GP_TRY(draw(d->f, arg));
    } else {
        fprintf(d->f, "<img src=\"");
        esc(d, src);
        fprintf(d->f, "\" alt=\"");
        esc(d, alt);
        fprintf(d->f, "\">\n");
    }
    fprintf(d->f, "<figcaption class=\"meta\">");
    return gp_ok();
}

void gp_doc_figure_end(gp_doc *d)
{
    fputs(html(d) ? "</figcaption>\n</figure>\n" : "\n", d->f);
}

void gp_doc_pre(gp_doc *d, const char *text)
{
    block(d);
    if (html(d)) {
        fprintf(d->f, "<pre>");
        esc(d, text);
        fprintf(d->f, "</pre>\n");
        return;
    }
    /* A fence longer than any backtick run inside keeps the text verbatim. */
    int run = 0, longest = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    int fence = longest >= 3 ? longest + 1 : 3;
    if (fence > 16)
        fence = 16;
    size_t len = strlen(text);
    fprintf(d->f, "%.*s\n", fence, "````````````````");
    for (const char *s = text; *s; s++)
        if ((unsigned char)*s >= 0x7f)
            s += gp_utf8_put(d->f, s) - 1;
        else
            fputc((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' ? ' ' : *s, d->f);
    fprintf(d->f, "%s%.*s\n", len && text[len - 1] == '\n' ? "" : "\n", fence, "````````````````");
}
