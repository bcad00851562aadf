#ifndef REQRUN_CXML2_SHIM_H
#define REQRUN_CXML2_SHIM_H
/* libxml2's XML and HTML parsers and XPath 1.0, for the xpath check (Sources/ReqRunKit/Expectations/XPathQuery.swift). */
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU; its headers would then pull the system's ICU headers, which clash with
   the ICU Foundation carries. Only the encoding handler's layout depends on it, and reqrun never reads it. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>

/* xmlFree is a global function pointer, which Swift 6 cannot read safely; this reads it in C. */
static inline void reqrun_xml_free(void *pointer) { xmlFree(pointer); }
#endif
