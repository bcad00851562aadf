// JavaScriptCore's C API (Debian: libjavascriptcoregtk-4.1-dev, headers in /usr/include/webkitgtk-4.1), loaded
// with dlopen when a run first needs a script: nothing here is linked, so `reqrun --version`, `list` and
// script-free runs never load the 32 MB library and its ICU and GLib dependencies (see README, "Postman
// scripts"). Every function is called through `RRJSC`, filled by `rr_jsc_load`.
#ifndef REQRUN_CJAVASCRIPTCORE_SHIM_H
#define REQRUN_CJAVASCRIPTCORE_SHIM_H

#include <JavaScriptCore/JavaScript.h>
#include <dlfcn.h>
#include <stddef.h>

// Not in Debian's headers (WebKit keeps it in JSContextRefPrivate.h, which the package does not ship), but
// exported by the library (`nm -D libjavascriptcoregtk-4.1.so.0`). The callback returns true to stop the
// script; JSC then throws an uncatchable termination exception.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback, void *context);

#define RR_JSC_FUNCTIONS(X) \
    X(JSContextGroupCreate) X(JSContextGroupRelease) X(JSContextGroupSetExecutionTimeLimit) \
    X(JSGlobalContextCreateInGroup) X(JSGlobalContextRelease) X(JSContextGetGlobalObject) \
    X(JSEvaluateScript) X(JSObjectMakeFunction) X(JSObjectCallAsFunction) X(JSObjectGetProperty) \
    X(JSObjectSetProperty) X(JSObjectMakeFunctionWithCallback) \
    X(JSValueProtect) X(JSValueUnprotect) X(JSValueIsObject) X(JSValueIsUndefined) X(JSValueToObject) \
    X(JSValueToStringCopy) X(JSValueToNumber) X(JSValueMakeString) X(JSValueMakeUndefined) \
    X(JSStringCreateWithUTF8CString) X(JSStringCreateWithCharacters) X(JSStringRelease) X(JSStringGetLength) X(JSStringGetMaximumUTF8CStringSize) \
    X(JSStringGetUTF8CString) X(JSGarbageCollect)

#define RR_JSC_FIELD(name) __typeof__(&name) name;
/// The C API's functions, resolved from the library at run time.
typedef struct RRJSC {
    RR_JSC_FUNCTIONS(RR_JSC_FIELD)
} RRJSC;
#undef RR_JSC_FIELD

/// Loads `library` (a soname such as `libjavascriptcoregtk-4.1.so.0`) and fills `table`.
/// Returns NULL on success, else dlerror()'s text (or the name of the missing symbol).
static inline const char *rr_jsc_load(const char *library, RRJSC *table) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define RR_JSC_RESOLVE(name) \
    table->name = (__typeof__(&name))dlsym(handle, #name); \
    if (table->name == NULL) return #name;
    RR_JSC_FUNCTIONS(RR_JSC_RESOLVE)
#undef RR_JSC_RESOLVE
    return NULL;
}

#endif
