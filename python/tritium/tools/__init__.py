"""`triton.tools`: host-side helpers (tensor descriptors) and Triton's
tools: ahead-of-time compilation to C (`python -m triton.tools.compile`),
linking of its specializations (`python -m triton.tools.link`) and SASS
listings of cubins (`triton.tools.disasm`)."""
