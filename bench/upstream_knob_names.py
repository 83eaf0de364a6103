#!/usr/bin/env python3
"""Writes the lists of knob NAMES each upstream reads (advisor/inventory/knob-names/*.json).

The advisor accepts a name on one of these lists that no rule set models and shows it as "unknown" (not modelled),
citing the file and line below; a name on no list stays a usage error. Each list is read from a bare git mirror at one
commit (the `fetch` tool brings them: github:NVIDIA/nccl, github:mmangkad/vllm, github:mmangkad-dev/sglang):

  python3 bench/upstream_knob_names.py OUT_DIR \
      --nccl /work/.mirror/NVIDIA+nccl/repo@5067397c2676d5aed50042fc39e5c8ee96eb0027 \
      --vllm /work/.mirror/mmangkad+vllm/repo@156b12667cf5fbb93914f3646acc25dca378b420 \
      --sglang /work/.mirror/mmangkad-dev+sglang/repo@6e27ce74edb151266d6277763260f4a49a545b18

What is read:
  nccl-env      NCCL_PARAM(Name, "ENV", …) as NCCL_ENV; DEFINE_NCCL_PARAM(…, KEY, …); "NCCL_…" literals passed to
                ncclGetEnv, getenv, ncclGetLevel and getNthreads (src/ only; the first site of each name)
  vllm-env      the keys of vllm/envs.py's environment_variables dict
  vllm-flags    every "--name" / "-x" string given to add_argument in vllm/engine/arg_utils.py
  sglang-flags  ServerArgs fields with an A[…, "help"] or A[…, Arg(…)] annotation (add_cli_args_from_dataclass:
                --field-name or Arg.cli_name, plus Arg.aliases; no_cli skipped) and explicit add_argument names, in
                python/sglang/srt/server_args.py
  sglang-env    class Envs attributes (NAME = Env…(…)) in python/sglang/srt/environ.py
  cuda-env      CUDA_* variables a framework reads (os.environ.get / os.getenv / os.environ[...]) or sets
                (os.environ[...] = …) under vllm/ and python/sglang/srt/, first site of each per framework; vLLM's
                envs.py keys count as reads
"""
import argparse
import ast
import json
import os
import re
import subprocess
import sys

NCCL_REPO = "NVIDIA/nccl"
VLLM_REPO = "mmangkad/vllm"
SGLANG_REPO = "mmangkad-dev/sglang"


def git(mirror, *args):
    return subprocess.run(["git", "-C", mirror, *args], check=True, capture_output=True, text=True).stdout


def show(mirror, commit, path):
    return git(mirror, "show", f"{commit}:{path}")


def files(mirror, commit, under, suffixes):
    out = git(mirror, "ls-tree", "-r", "--name-only", commit, under).splitlines()
    return sorted(p for p in out if p.endswith(suffixes))


def entry(name, repo, commit, path, line, **more):
    e = {"name": name, "repo": repo, "commit": commit, "path": path, "line": line}
    e.update(more)
    return e


def first_sites(found):
    """found: (name, path, line, extra) in any order -> the first site per name (path, then line), sorted by name."""
    best = {}
    for name, path, line, extra in found:
        key = (path, line)
        if name not in best or key < best[name][0]:
            best[name] = (key, extra)
    return best


NCCL_PARAM = re.compile(r'\bNCCL_PARAM\(\s*\w+\s*,\s*"([A-Z0-9_]+)"')
DEFINE_PARAM = re.compile(r'\bDEFINE_NCCL_PARAM\(\s*\w+\s*,\s*[\w:<>* ]+?,\s*(NCCL_[A-Z0-9_]+)\s*,')
NCCL_CALL = re.compile(r'\b(?:ncclGetEnv|getenv|ncclGetLevel|getNthreads)\s*\(([^;]*)')
NCCL_LITERAL = re.compile(r'"(NCCL_[A-Z0-9_]+)"')


def nccl_env(mirror, commit):
    found = []
    for path in files(mirror, commit, "src", (".cc", ".h", ".cu", ".cpp")):
        text = show(mirror, commit, path)
        # join continuation lines so a call split over lines is seen whole; keep the line of its start
        lines = text.split("\n")
        for i, line in enumerate(lines):
            window = line + " " + (lines[i + 1] if i + 1 < len(lines) else "")
            for m in NCCL_PARAM.finditer(window):
                if m.start() < len(line):
                    found.append(("NCCL_" + m.group(1), path, i + 1, "NCCL_PARAM"))
            for m in DEFINE_PARAM.finditer(window):
                if m.start() < len(line):
                    found.append((m.group(1), path, i + 1, "DEFINE_NCCL_PARAM"))
            for m in NCCL_CALL.finditer(line):
                for lit in NCCL_LITERAL.finditer(m.group(1)):
                    found.append((lit.group(1), path, i + 1, re.match(r"\w+", m.group(0)).group(0)))
    best = first_sites(found)
    return [entry(n, NCCL_REPO, commit, p, l, via=x) for n, ((p, l), x) in sorted(best.items())]


def vllm_env(mirror, commit):
    path = "vllm/envs.py"
    tree = ast.parse(show(mirror, commit, path))
    out = []
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "environment_variables" and isinstance(node.value, ast.Dict):
            for k in node.value.keys:
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out.append(entry(k.value, VLLM_REPO, commit, path, k.lineno))
    if not out:
        sys.exit("vllm/envs.py: no environment_variables dict found")
    return sorted(out, key=lambda e: e["name"])


def add_argument_names(tree):
    """(name without dashes, line) for every '-…' string given positionally to a call of .add_argument."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            for a in node.args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith("-"):
                    yield a.value.lstrip("-"), a.lineno


def vllm_flags(mirror, commit):
    path = "vllm/engine/arg_utils.py"
    found = [(n, path, l, None) for n, l in add_argument_names(ast.parse(show(mirror, commit, path)))]
    best = first_sites(found)
    return [entry(n, VLLM_REPO, commit, p, l) for n, ((p, l), _) in sorted(best.items())]


def sglang_flags(mirror, commit):
    path = "python/sglang/srt/server_args.py"
    tree = ast.parse(show(mirror, commit, path))
    found = [(n, path, l, None) for n, l in add_argument_names(tree)]
    server_args = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ServerArgs")
    for stmt in server_args.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        ann = stmt.annotation
        if not (isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name) and ann.value.id in ("A", "Annotated")):
            continue
        parts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        meta = None
        for p in parts[1:]:
            if isinstance(p, ast.Constant) and isinstance(p.value, str):
                meta = {}
                break
            if isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id == "Arg":
                meta = {k.arg: k.value for k in p.keywords}
                break
        if meta is None:
            continue  # no Arg: add_cli_args_from_dataclass skips it
        if isinstance(meta.get("no_cli"), ast.Constant) and meta["no_cli"].value is True:
            continue
        cli = meta.get("cli_name")
        names = [cli.value if isinstance(cli, ast.Constant) else "--" + stmt.target.id.replace("_", "-")]
        aliases = meta.get("aliases")
        if isinstance(aliases, (ast.List, ast.Tuple)):
            names += [a.value for a in aliases.elts if isinstance(a, ast.Constant)]
        for n in names:
            found.append((n.lstrip("-"), path, stmt.lineno, None))
    best = first_sites(found)
    return [entry(n, SGLANG_REPO, commit, p, l) for n, ((p, l), _) in sorted(best.items())]


def sglang_env(mirror, commit):
    path = "python/sglang/srt/environ.py"
    tree = ast.parse(show(mirror, commit, path))
    envs = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Envs")
    out = []
    for stmt in envs.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id.startswith("Env")):
            out.append(entry(stmt.targets[0].id, SGLANG_REPO, commit, path, stmt.lineno))
    return sorted(out, key=lambda e: e["name"])


CUDA_READ = re.compile(r'os\.(?:environ\.get|getenv)\(\s*"(CUDA_[A-Z0-9_]+)"|os\.environ\["(CUDA_[A-Z0-9_]+)"\](\s*=(?!=))?')


def cuda_env(framework, mirror, commit, repo, under, extra=()):
    found = list(extra)
    for path in files(mirror, commit, under, (".py",)):
        for i, line in enumerate(show(mirror, commit, path).split("\n")):
            for m in CUDA_READ.finditer(line):
                name = m.group(1) or m.group(2)
                found.append((name, path, i + 1, "sets" if m.group(3) else "reads"))
    best = first_sites(found)
    return [entry(n, repo, commit, p, l, framework=framework, how=h) for n, ((p, l), h) in sorted(best.items())]


def write(out_dir, name, framework, kind, repo, commit, read, names, command):
    doc = {"list": name, "framework": framework, "kind": kind, "repo": repo, "commit": commit, "read": read,
           "generatedBy": command, "names": names}
    doc = {k: v for k, v in doc.items() if v is not None}  # cuda-env: framework, repo and commit per entry
    head = {k: v for k, v in doc.items() if k != "names"}
    with open(os.path.join(out_dir, name + ".json"), "w") as f:  # one name a line, so a rerun diffs by name
        f.write(json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ',\n "names": [\n')
        f.write(",\n".join("  " + json.dumps(e, ensure_ascii=False) for e in names))
        f.write("\n ]\n}\n")
    print(f"{name}: {len(names)} names", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--nccl", required=True, help="MIRROR@COMMIT")
    ap.add_argument("--vllm", required=True, help="MIRROR@COMMIT")
    ap.add_argument("--sglang", required=True, help="MIRROR@COMMIT")
    a = ap.parse_args()
    command = "python3 bench/upstream_knob_names.py DIR --nccl MIRROR@%s --vllm MIRROR@%s --sglang MIRROR@%s" % (
        a.nccl.split("@")[1], a.vllm.split("@")[1], a.sglang.split("@")[1])
    nm, nc = a.nccl.rsplit("@", 1)
    vm, vc = a.vllm.rsplit("@", 1)
    sm, sc = a.sglang.rsplit("@", 1)
    os.makedirs(a.out_dir, exist_ok=True)
    write(a.out_dir, "nccl-env", "nccl", "env", NCCL_REPO, nc,
          'NCCL_PARAM(Name, "ENV", …) as NCCL_ENV, DEFINE_NCCL_PARAM keys, "NCCL_…" passed to ncclGetEnv/getenv/ncclGetLevel/getNthreads (src/)',
          nccl_env(nm, nc), command)
    venv = vllm_env(vm, vc)
    write(a.out_dir, "vllm-env", "vllm", "env", VLLM_REPO, vc, "keys of environment_variables in vllm/envs.py", venv, command)
    write(a.out_dir, "vllm-flags", "vllm", "flag", VLLM_REPO, vc, "add_argument names in vllm/engine/arg_utils.py", vllm_flags(vm, vc), command)
    write(a.out_dir, "sglang-flags", "sglang", "flag", SGLANG_REPO, sc,
          "ServerArgs A[…] fields (add_cli_args_from_dataclass) and add_argument names in python/sglang/srt/server_args.py",
          sglang_flags(sm, sc), command)
    write(a.out_dir, "sglang-env", "sglang", "env", SGLANG_REPO, sc, "class Envs attributes in python/sglang/srt/environ.py",
          sglang_env(sm, sc), command)
    vllm_cuda = [(e["name"], e["path"], e["line"], "reads") for e in venv if e["name"].startswith("CUDA_")]
    cuda = (cuda_env("sglang", sm, sc, SGLANG_REPO, "python/sglang/srt")
            + cuda_env("vllm", vm, vc, VLLM_REPO, "vllm", vllm_cuda))
    write(a.out_dir, "cuda-env", None, "env", None, None,
          "CUDA_* read (os.environ.get/os.getenv/os.environ[…]) or set (os.environ[…] = …) by SGLang and vLLM; vLLM's envs.py keys count as reads",
          cuda, command)


if __name__ == "__main__":
    main()
