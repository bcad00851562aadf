#ifndef REQRUN_CXML2_SHIM_H
#define REQRUN_CXML2_SHIM_H
/* libxml2's XML and HTML parsers and XPath 1.0, for the xpath check (Sources/ReqRunKit/Expectations/XPathQuery.swift).
   Headers only: the library is loaded with dlopen the first time a check needs it (`rr_xml2_load`), so a run,
   `list` or `--version` without an xpath check never loads libxml2 and the ICU it brings (about 0.6 ms of
   every start, with the dynamic loader's relocations). */
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU; its headers would then pull the system's ICU headers, which clash with
   the ICU Foundation carries. Only the encoding handler's layout depends on it, and reqrun never reads it. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <dlfcn.h>
#include <stddef.h>

#define RR_XML2_FUNCTIONS(X) \
    X(xmlReadMemory) X(htmlReadMemory) X(xmlFreeDoc) X(xmlNodeGetContent) X(xmlSetStructuredErrorFunc) \
    X(xmlXPathCompile) X(xmlXPathFreeCompExpr) X(xmlXPathNewContext) X(xmlXPathFreeContext) \
    X(xmlXPathEvalExpression) X(xmlXPathFreeObject) X(xmlXPathRegisterNs) X(xmlDocGetRootElement)

#define RR_XML2_FIELD(name) __typeof__(&name) name;
/// The functions reqrun calls, resolved from the library at run time.
typedef struct RRXML2 {
    RR_XML2_FUNCTIONS(RR_XML2_FIELD)
    /// `xmlFree`: with threads, libxml2 2.9 reaches it through `__xmlFree()`; later versions export the variable.
    xmlFreeFunc *(*freeFunction)(void);
    xmlFreeFunc *freeVariable;
} RRXML2;
#undef RR_XML2_FIELD

/// Loads libxml2 and fills `table`. Returns NULL on success, else dlerror()'s text (or the name of the
/// missing symbol).
static inline const char *rr_xml2_load(RRXML2 *table) {
    void *handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define RR_XML2_RESOLVE(name) \
    table->name = (__typeof__(&name))dlsym(handle, #name); \
    if (table->name == NULL) return #name;
    RR_XML2_FUNCTIONS(RR_XML2_RESOLVE)
#undef RR_XML2_RESOLVE
    table->freeFunction = (xmlFreeFunc *(*)(void))dlsym(handle, "__xmlFree");
    table->freeVariable = (xmlFreeFunc *)dlsym(handle, "xmlFree");
    if (table->freeFunction == NULL && table->freeVariable == NULL) return "xmlFree";
    return NULL;
}

/* xmlFree is a global function pointer, which Swift 6 cannot read safely; this reads it in C. */
static inline void reqrun_xml_free(const RRXML2 *xml, void *pointer) {
    xmlFreeFunc release = xml->freeFunction != NULL ? *xml->freeFunction() : *xml->freeVariable;
    release(pointer);
}
#endif
