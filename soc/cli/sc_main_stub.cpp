// soc/cli/sc_main_stub.cpp -- blsim and its tests have their own main(); libsystemc still
// references sc_main, so every executable links this definition, which must never run.
#include <cstdio>
#include <cstdlib>

extern "C" int sc_main(int, char*[])
{
    std::fputs("blsim: sc_main called: SystemC's own main() was linked by mistake\n", stderr);
    std::abort();
}
