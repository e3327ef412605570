"""`triton.tools`: host-side helpers (tensor descriptors)."""
