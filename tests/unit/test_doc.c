/* The document writer (common/doc.c): one walk, two back ends. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "gp_test.h"
#include "utf8.h"

/* One small page, walked once; returns the text the back end wrote (caller frees). */
static char *page(gp_doc_format fmt)
{
    static const char *const heads[] = {"key", "value"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    gp_doc d;
    gp_doc_init(&d, f, fmt);
    gp_doc_begin(&d, "T <1>", NULL);
    gp_doc_heading(&d, 2, "sec", "Section");
    gp_doc_para(&d, "meta", "a<b and a <tag> | bar\nnext");
    gp_doc_table_begin_aligned(&d, 2, heads, "lr");
    gp_doc_row_begin(&d);
    gp_doc_cell(&d, NULL, GP_DOC_CODE, "k|1");
    gp_doc_cell(&d, "num", GP_DOC_PLAIN, "3.5");
    gp_doc_row_end(&d);
    gp_doc_row_begin(&d);
    gp_doc_cell_begin(&d, NULL, 2);
    gp_doc_span(&d, GP_DOC_BAD, "not measured");
    gp_doc_cell_end(&d);
    gp_doc_row_end(&d);
    gp_doc_table_end(&d);
    gp_doc_list_begin(&d);
    gp_doc_item_begin(&d, NULL);
    gp_doc_link(&d, "#sec", "in page");
    gp_doc_text(&d, " and ");
    gp_doc_link(&d, "x.svg", "a file");
    gp_doc_item_end(&d);
    gp_doc_list_end(&d);
    gp_doc_pre(&d, "a ``` b\n");
    gp_doc_end(&d);
    fclose(f);
    return buf;
}

GP_TEST(doc_markdown_back_end)
{
    char *md = page(GP_DOC_MD);
    GP_CHECK(md != NULL);
    GP_CHECK(!strncmp(md, "## Section\n\n", 12));
    /* Outside a table '|' stays; a '<' that opens a tag is escaped, "a<b" too
     * ('b' would start a tag), and the line break is flattened. */
    GP_CHECK(strstr(md, "a&lt;b and a &lt;tag> | bar next\n") != NULL);
    GP_CHECK(strstr(md, "| key | value |\n| --- | ---: |\n") != NULL);
    GP_CHECK(strstr(md, "| `k\\|1` | 3.5 |\n") != NULL);
    GP_CHECK(strstr(md, "| **not measured** | |\n") != NULL); /* two columns, one spanned */
    GP_CHECK(strstr(md, "- in page and [a file](x.svg)\n") != NULL);
    GP_CHECK(strstr(md, "````\na ``` b\n````\n") != NULL); /* fence longer than the run inside */
    free(md);
    return 0;
}

GP_TEST(doc_html_back_end)
{
    char *h = page(GP_DOC_HTML);
    GP_CHECK(h != NULL);
    GP_CHECK(strstr(h, "<title>T &lt;1&gt;</title>") != NULL);
    GP_CHECK(strstr(h, "<h2 id=\"sec\">Section</h2>") != NULL);
    GP_CHECK(strstr(h, "<p class=\"meta\">a&lt;b and a &lt;tag&gt; | bar\nnext</p>") != NULL);
    GP_CHECK(strstr(h, "<tr><th>key</th><th>value</th></tr>") != NULL);
    GP_CHECK(strstr(h, "<td><code>k|1</code></td><td class=\"num\">3.5</td>") != NULL);
    GP_CHECK(strstr(h, "<td colspan=\"2\"><span class=\"bad\">not measured</span></td>") != NULL);
    GP_CHECK(strstr(h, "<a href=\"#sec\">in page</a>") != NULL);
    GP_CHECK(strstr(h, "<pre>a ``` b\n</pre>") != NULL);
    GP_CHECK(strstr(h, "</body>\n</html>\n") != NULL);
    free(h);
    return 0;
}

GP_TEST(rel3_pages_carry_only_utf8_text)
{
    char *out = NULL;
    size_t n = 0;
    for (int fmt = 0; fmt < 2; fmt++) {
        FILE *f = open_memstream(&out, &n);
        GP_CHECK(f != NULL);
        gp_doc d;
        gp_doc_init(&d, f, fmt ? GP_DOC_HTML : GP_DOC_MD);
        gp_doc_para(&d, NULL, "bytes \xff\xfe\x01 and \xc2\x85 and \x7f, kept \xc3\xa9");
        gp_doc_para_begin(&d, NULL);
        gp_doc_span(&d, GP_DOC_CODE, "code \x80\x1b");
        gp_doc_para_end(&d);
        gp_doc_pre(&d, "pre \xfa\x02\n");
        fclose(f);
        int ok = gp_utf8_text_ok(out) || strchr(out, '\n'); /* newlines apart: */
        for (char *c = out; *c; c++)
            if (*c == '\n')
                *c = ' ';
        ok = gp_utf8_text_ok(out) && strstr(out, "\xc3\xa9") && strstr(out, "\xef\xbf\xbd");
        free(out);
        out = NULL;
        GP_CHECK(ok);
    }
    return 0;
}
