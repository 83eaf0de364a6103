"""Lists the branches of one upstream file as inventory candidates (issue 23, item 3).

Usage: python3 bench/upstream_branches.py MIRROR COMMIT PATH > candidates.json
  MIRROR  a bare git mirror (the search tool's fetch github:owner/name brings one)
  COMMIT  the commit to read; PATH the file in the repository

Python files are parsed with ast: every raise, assert and logger/warnings call that warns or falls back, with the
enclosing if/else/except conditions joined as the condition and the message's literal text ({expr} where upstream
interpolates). C/C++/CUDA files are scanned for WARN/INFO/FLASHINFER_ERROR/TORCH_CHECK calls and NCCL_PARAM knobs;
c_message() joins a call's adjacent string literals. The output is a list of candidates, not the inventory: each was
reviewed, classified (modelledBy / notModelled + appliesWhen) and completed with the silent disables by hand before it
went into probe/src/main/resources/dev/fabricscope/advisor/inventory/upstream-inventory.json.
"""
import ast, json, re, subprocess, sys

def show(mirror, commit, path):
    return subprocess.run(["git", "-C", mirror, "show", f"{commit}:{path}"], capture_output=True, text=True, check=True).stdout

def strs(node):
    """The literal text of a message expression: string parts joined, placeholders as {expr}."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = ""
        for v in node.values:
            out += v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return strs(node.left) + strs(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return strs(node.left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return strs(node.func.value)
    return "{" + ast.unparse(node) + "}"

WARN = re.compile(r"(logger|logging|log)\.(warning|warn|warning_once|info_once|info|error)$|warnings\.warn$|print_warning")

def python_branches(text):
    tree = ast.parse(text)
    parents = {}
    for p in ast.walk(tree):
        for c in ast.iter_child_nodes(p):
            parents[c] = p
    def context(node):
        conds, func = [], None
        child, p = node, parents.get(node)
        while p is not None:
            if isinstance(p, ast.If):
                t = ast.unparse(p.test)
                conds.append(t if child in p.body else f"not ({t})")
            elif isinstance(p, ast.ExceptHandler):
                conds.append("except " + (ast.unparse(p.type) if p.type else ""))
            elif isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)) and func is None:
                func = p.name
                cls = parents.get(p)
                while cls is not None and not isinstance(cls, ast.ClassDef):
                    cls = parents.get(cls)
                if isinstance(cls, ast.ClassDef):
                    func = cls.name + "." + func
            child, p = p, parents.get(p)
        return " and ".join(reversed(conds[:3])), func
    out = []
    for n in ast.walk(tree):
        kind = msg = None
        if isinstance(n, ast.Raise) and n.exc is not None:
            kind = "raise"
            e = n.exc
            if isinstance(e, ast.Call):
                msg = (ast.unparse(e.func) + ": " + strs(e.args[0])) if e.args else ast.unparse(e.func)
            else:
                msg = ast.unparse(e)
        elif isinstance(n, ast.Assert):
            kind = "assert"
            msg = strs(n.msg) if n.msg is not None else ""
            cond_extra = ast.unparse(n.test)
        elif isinstance(n, ast.Call) and WARN.search(ast.unparse(n.func)):
            f = ast.unparse(n.func)
            if f.endswith((".info", ".info_once", ".error")) and not re.search(r"disabl|fall|not supported|skip|unsupported", ast.unparse(n), re.I):
                continue
            kind = "warn-fallback"
            msg = strs(n.args[0]) if n.args else ""
        if kind is None:
            continue
        cond, func = context(n)
        if kind == "assert":
            cond = (cond + " and " if cond else "") + "not (" + cond_extra + ")"
        out.append(dict(line=n.lineno, kind=kind, function=func, condition=cond, message=msg))
    out.sort(key=lambda e: e["line"])
    return out

C_PATTERNS = [
    ("raise", re.compile(r'\bWARN\s*\(\s*(?:NCCL_\w+\s*,\s*)?"((?:[^"\\]|\\.)*)"')),
    ("raise", re.compile(r'\b(?:FLASHINFER_CHECK|TORCH_CHECK|FLASHINFER_ERROR|TVM_FFI_ICHECK\w*)\s*\((.*)')),
    ("warn-fallback", re.compile(r'\bINFO\s*\([^,]+,\s*"((?:[^"\\]|\\.)*(?:disabl|not support|fall|unsupported|skip)(?:[^"\\]|\\.)*)"', re.I)),
    ("knob", re.compile(r'\bNCCL_PARAM\s*\((\w+)\s*,\s*"(\w+)"\s*,\s*([^)]*)\)')),
    ("raise", re.compile(r'std::cerr.*|throw\s+std::\w+\((.*)')),
]

def c_branches(text):
    lines = text.split("\n")
    out = []
    func = None
    for i, l in enumerate(lines, 1):
        m = re.match(r'^(?:static\s+|inline\s+|__global__\s+|template.*)?[\w:<>\*& ]+?\b(\w+)\s*\([^;]*$', l)
        if m and not l.startswith((" ", "\t", "#", "//")) and m.group(1) not in ("if", "for", "while", "switch", "return"):
            func = m.group(1)
        for kind, p in C_PATTERNS:
            mm = p.search(l)
            if not mm:
                continue
            if kind == "knob":
                out.append(dict(line=i, kind="knob", function=func, condition=f"NCCL_{mm.group(2)} (default {mm.group(3).strip()})", message=""))
                continue
            # condition: nearest preceding if( within 6 lines
            cond = ""
            for j in range(i - 1, max(0, i - 7), -1):
                s = lines[j - 1] if j != i else l
                cm = re.search(r'\bif\s*\((.*)', lines[j - 1])
                if cm:
                    cond = cm.group(1).rstrip("{ ").rstrip()
                    if cond.endswith(")"):
                        cond = cond[:-1]
                    break
            cm = re.search(r'\bif\s*\((.*?)\)\s*(?:\{|WARN|INFO|return|NCCLCHECK)', l)
            if cm:
                cond = cm.group(1)
            msg = mm.group(1) if mm.groups() and mm.group(1) else l.strip()
            out.append(dict(line=i, kind=kind, function=func, condition=cond.strip(), message=msg.strip()))
    return out


def c_message(text, line):
    """The text of the WARN/INFO/FLASHINFER_ERROR call starting on `line` (1-based): adjacent string literals joined,
    C escapes decoded, a non-literal operand of + shown as {expr}, printf arguments dropped."""
    src = "\n".join(text.split("\n")[line - 1:line + 12])
    call = re.search(r"\b(WARN|INFO|FLASHINFER_ERROR|FLASHINFER_CHECK|TORCH_CHECK)\s*\(", src)
    start = call.end() if call else src.index("(") + 1
    depth, i, parts, expr = 0, start, [], ""
    while i < len(src):
        ch = src[i]
        if ch == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            parts.append(bytes(src[i + 1:j], "utf-8").decode("unicode_escape"))
            i = j + 1
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            if parts and expr.strip().lstrip("+").strip() == "":
                break
            if not parts:          # a leading NCCL_* subsystem argument
                expr = ""
                i += 1
                continue
            break
        elif ch == "+" and depth == 0:
            e = expr.strip().strip("\\").strip()
            if e:
                parts.append("{" + e + "}")
            expr = ""
            i += 1
            continue
        if ch not in "\\\n":
            expr += ch
        if ch == '"':
            pass
        i += 1
        if src[i - 1] == '"':
            expr = ""
    e = expr.strip()
    if e and not e.startswith('"'):
        parts.append("{" + e + "}")
    return "".join(parts)


if __name__ == "__main__":
    mirror, commit, path = sys.argv[1:4]
    text = show(mirror, commit, path)
    res = python_branches(text) if path.endswith(".py") else c_branches(text)
    json.dump(res, sys.stdout, indent=1, ensure_ascii=False)
