"""`triton._utils`: paths into nested argument tuples, as Triton's
helpers of that name walk them (Inductor uses them to find the
specialization keys among a kernel's argument values)."""


def find_paths_if(iterable, pred):
    """The index paths (tuples) of the leaves of nested lists and tuples
    `iterable` for which pred(path, leaf) holds."""
    found = []

    def visit(value, path):
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                visit(item, path + (i,))
        elif pred(path, value):
            found.append(path)

    visit(iterable, ())
    return found


def get_iterable_path(iterable, path):
    """The element of nested `iterable` at index path `path`."""
    for i in path:
        iterable = iterable[i]
    return iterable
