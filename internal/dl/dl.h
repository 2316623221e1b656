// The run-time loader that internal/cufft and internal/nvjpeg share (cgo
// preambles include it): a package lists the symbols it calls once, as an X-macro
// of (function pointer, symbol name) pairs, and GI_DL_OPENER makes the function
// that loads the first library of a list that has them all.
#pragma once
#include <dlfcn.h>
#include <string.h>

// gi_dl_open loads the first of names (NUL-separated, ending in an empty name)
// that dlopen finds and that has every one of the n symbols, storing their
// addresses through slots and the library's handle in *lib; it returns the name
// loaded, or NULL when none has them all.
static const char* gi_dl_open(const char* names, const char* const* syms, void** const* slots, int n, void** lib) {
  for (const char* nm = names; *nm; nm += strlen(nm) + 1) {
    void* h = dlopen(nm, RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    int i = 0;
    while (i < n && (*slots[i] = dlsym(h, syms[i])) != NULL) i++;
    if (i < n) {
      dlclose(h);
      continue;
    }
    *lib = h;
    return nm;
  }
  return NULL;
}

#define GI_DL_NAME(p, s) s,
#define GI_DL_SLOT(p, s) (void**)&p,
// GI_DL_OPENER(fn, SYMS) defines const char* fn(const char* names), which loads
// the first library of names that has every symbol of SYMS (see gi_dl_open).
#define GI_DL_OPENER(fn, SYMS)                                                            \
  static void* fn##_lib;                                                                  \
  static const char* fn(const char* names) {                                              \
    static const char* const syms[] = {SYMS(GI_DL_NAME)};                                 \
    void** const slots[] = {SYMS(GI_DL_SLOT)};                                            \
    return gi_dl_open(names, syms, slots, (int)(sizeof syms / sizeof *syms), &fn##_lib); \
  }
