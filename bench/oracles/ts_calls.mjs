#!/usr/bin/env node
// Call-graph oracle for TypeScript/JavaScript: the compiler's own answer to "what does this
// call resolve to?", used as ground truth by bench/graph_accuracy.py.
//
// For every CallExpression in the project's own source files, the callee name token is the
// call's expression when it is an Identifier, or the `.name` of a PropertyAccessExpression
// (`a.b()`, `a?.b()`); other shapes (`a[b]()`, `f()()`, `super()`) are not call sites here.
// `checker.getSymbolAtLocation(name)` resolves it, aliases (imports, re-exports) are followed
// to the original symbol, and each declaration inside the project becomes a target.
//
// Output, one JSON object per line (stdout or --out), sorted by path, line, column:
//   {"path", "line", "column", "name", "shape", "targets": [{"path", "line", "kind", "name"}],
//    "external"?}
// path is project-relative with "/", line/column are 1-based (column in UTF-16 code units, the
// compiler's unit; equal to characters outside the astral planes). A target's line is the line
// of its declaration's name, and its name is that name ("constructor" for constructors, absent
// for computed names); "local": true marks a parameter or a variable declared inside a function
// (see isLocalDeclaration); a target with "via" is an equally right answer found another way:
// "initializer" is what a variable target is bound to, "signature" the constructor a `new`
// runs (see resolveSite). shape is how the callee was reached: "name" f(), "self" this.f(),
// "super" super.f(), "member" x.f(), "new" new X(). "external": true marks a site resolved only to declarations outside the
// project (lib.d.ts, node_modules); an unresolved site has no targets and no flag.
//
// Usage: node bench/oracles/ts_calls.mjs PROJECT_DIR [--out FILE] [--tsconfig FILE]
//        [--no-tsconfig] [--include-new] [--max-old-space-size MB]
// --include-new also records `new X()` sites (shape "new"), which astrag emits as calls.
// The checker took ~1.1 GB on 520k lines; the script re-runs itself with a larger V8 heap
// (default 8192 MB) unless one was already given.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";

const require = createRequire(import.meta.url);
const ts = require("typescript"); // bench/node_modules/typescript (npm install --prefix bench)

const SKIP_DIRS = new Set(["node_modules", "dist", "build", "out", ".git", "coverage"]);
const SOURCE_EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

function parseArgs(argv) {
  const args = { dir: null, out: null, tsconfig: null, noTsconfig: false, heapMb: 8192, includeNew: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") args.out = argv[++i];
    else if (a === "--tsconfig") args.tsconfig = argv[++i];
    else if (a === "--no-tsconfig") args.noTsconfig = true;
    else if (a === "--include-new") args.includeNew = true;
    else if (a === "--max-old-space-size") args.heapMb = Number(argv[++i]);
    else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else if (args.dir === null) args.dir = a;
    else usage(`unexpected argument ${a}`);
  }
  if (args.dir === null) usage("missing PROJECT_DIR");
  return args;
}

function usage(message) {
  process.stderr.write(
    `ts_calls: ${message}\nusage: node ts_calls.mjs PROJECT_DIR [--out FILE] ` +
      `[--tsconfig FILE] [--no-tsconfig] [--include-new] [--max-old-space-size MB]\n`,
  );
  process.exit(2);
}

// Re-exec with a bigger heap: V8's default (~2-4 GB) is too small for 300k+ line programs.
function ensureHeap(heapMb) {
  const limitMb = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
  if (limitMb >= heapMb * 0.9 || process.env.TS_CALLS_CHILD) return;
  const child = spawnSync(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit", env: { ...process.env, TS_CALLS_CHILD: "1" } },
  );
  process.exit(child.status ?? 1);
}

function listSourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full);
      } else if (SOURCE_EXT.test(entry.name) && !entry.name.endsWith(".min.js")) {
        files.push(full);
      }
    }
  };
  walk(root);
  return files.sort();
}

// Options for a directory without tsconfig.json: permissive, so any layout resolves.
function defaultOptions() {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowJs: true,
    checkJs: false,
    jsx: ts.JsxEmit.Preserve,
    experimentalDecorators: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
  };
}

// Parse a tsconfig; a solution-style config ("files": [] + references) contributes the
// union of its references' files, with the first non-empty reference's options.
function readTsconfig(configPath, seen = new Set()) {
  const resolved = path.resolve(configPath);
  if (seen.has(resolved)) return { fileNames: [], options: null };
  seen.add(resolved);
  // getParsedCommandLineOfConfigFile records configFilePath, without which "types" and
  // typeRoots resolve from the current directory instead of the project's.
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(resolved, {}, host);
  let fileNames = [...parsed.fileNames];
  let options = fileNames.length ? parsed.options : null;
  for (const ref of parsed.projectReferences ?? []) {
    const refPath = ts.resolveProjectReferencePath(ref);
    const sub = readTsconfig(refPath, seen);
    fileNames = fileNames.concat(sub.fileNames);
    options ??= sub.options;
  }
  return { fileNames: [...new Set(fileNames)], options };
}

function buildProgram(root, args) {
  const configPath = args.tsconfig ?? path.join(root, "tsconfig.json");
  if (!args.noTsconfig && fs.existsSync(configPath)) {
    const { fileNames, options } = readTsconfig(configPath);
    if (fileNames.length) {
      const opts = { ...options, noEmit: true, allowJs: options.allowJs ?? true };
      return { program: ts.createProgram(fileNames, opts), config: path.relative(root, configPath) };
    }
  }
  return { program: ts.createProgram(listSourceFiles(root), defaultOptions()), config: null };
}

// ts.SyntaxKind maps numbers to names, but markers like FirstStatement share numbers with
// real kinds; prefer the real name.
const KIND_NAMES = (() => {
  const names = new Map();
  for (const [name, value] of Object.entries(ts.SyntaxKind)) {
    if (typeof value !== "number") continue;
    const marker = /^(First|Last)/.test(name);
    if (!names.has(value) || !marker) names.set(value, name);
  }
  return names;
})();

// The callee name token and the call's shape: "name" (f()), "self" (this.f()), "super"
// (super.f()) or "member" (x.f()); graph_accuracy.py breaks its numbers down by shape.
function calleeOf(call) {
  const expr = call.expression;
  if (ts.isNewExpression(call)) {
    // `new X()` / `new ns.X()`: the class name token, shape "new" (only with --include-new).
    if (ts.isIdentifier(expr)) return { nameNode: expr, shape: "new" };
    if (ts.isPropertyAccessExpression(expr)) return { nameNode: expr.name, shape: "new" };
    return null;
  }
  if (ts.isIdentifier(expr)) return { nameNode: expr, shape: "name" };
  if (ts.isPropertyAccessExpression(expr)) {
    const recv = expr.expression.kind;
    const shape =
      recv === ts.SyntaxKind.ThisKeyword ? "self" : recv === ts.SyntaxKind.SuperKeyword ? "super" : "member";
    return { nameNode: expr.name, shape };
  }
  return null;
}

// A parameter or a variable declared inside a function body: the graph being scored has no
// node for these by design (its nodes are modules, classes, functions, methods, module-level
// variables and class fields), so graph_accuracy.py reports calls to them separately.
// A constructor parameter property (`constructor(private svc: Svc)`) is a class field too.
function isLocalDeclaration(decl) {
  if (ts.isParameter(decl)) return !ts.isParameterPropertyDeclaration(decl, decl.parent);
  if (!ts.isVariableDeclaration(decl) && !ts.isBindingElement(decl)) return false;
  for (let node = decl.parent; node; node = node.parent) {
    if (ts.isSourceFile(node) || ts.isModuleBlock(node)) return false;
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return true;
  }
  return false;
}

function makeResolver(root, checker) {
  const ownFile = (fileName) => {
    const rel = path.relative(root, fileName);
    return !rel.startsWith("..") && !path.isAbsolute(rel) && !rel.split(path.sep).includes("node_modules");
  };
  const relPath = (fileName) => path.relative(root, fileName).split(path.sep).join("/");

  const symbolAt = (node) => {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
      try {
        symbol = checker.getAliasedSymbol(symbol);
      } catch {
        // A broken alias chain (missing module) leaves the alias itself; it is still a symbol.
      }
    }
    return symbol;
  };

  // `const f = obj.method; f()` resolves to the variable; what it is bound to (when the
  // initializer is a plain reference) is an equally right answer, added with "via".
  const initializerRef = (decl) => {
    const init = ts.isVariableDeclaration(decl) ? decl.initializer : undefined;
    if (!init) return undefined;
    if (ts.isIdentifier(init)) return init;
    if (ts.isPropertyAccessExpression(init)) return init.name;
    return undefined;
  };

  return function resolveSite(nameNode, expr) {
    const targets = [];
    let external = false;
    const add = (decls, via) => {
      for (const decl of decls) {
        const sf = decl.getSourceFile();
        if (!ownFile(sf.fileName)) {
          if (!via) external = true;
          continue;
        }
        const nameOf = ts.getNameOfDeclaration(decl) ?? decl;
        const line = sf.getLineAndCharacterOfPosition(nameOf.getStart(sf)).line + 1;
        const name = ts.isConstructorDeclaration(decl)
          ? "constructor"
          : ts.isIdentifier(nameOf) || ts.isPrivateIdentifier(nameOf)
            ? nameOf.text
            : undefined;
        const target = { path: relPath(sf.fileName), line, kind: KIND_NAMES.get(decl.kind), name };
        if (via) target.via = via;
        if (isLocalDeclaration(decl)) target.local = true;
        if (!targets.some((t) => t.path === target.path && t.line === target.line)) targets.push(target);
      }
    };
    const decls = symbolAt(nameNode)?.declarations ?? [];
    add(decls);
    for (const decl of decls) {
      const ref = initializerRef(decl);
      if (ref) add(symbolAt(ref)?.declarations ?? [], "initializer");
    }
    // `new X()` runs a constructor, X's own or an inherited one: the checker's resolved
    // signature names it, so an edge to that constructor is right too.
    if (ts.isNewExpression(expr)) {
      const ctor = checker.getResolvedSignature(expr)?.declaration;
      if (ctor && ts.isConstructorDeclaration(ctor)) add([ctor], "signature");
    }
    return { targets, external: external && targets.length === 0 };
  };
}

function collectSites(program, root, includeNew) {
  const checker = program.getTypeChecker();
  const resolveSite = makeResolver(root, checker);
  const sites = [];
  let files = 0;
  let lines = 0;
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile) continue;
    const rel = path.relative(root, sf.fileName);
    if (rel.startsWith("..") || rel.split(path.sep).includes("node_modules")) continue;
    files++;
    lines += sf.getLineStarts().length;
    const relPath = rel.split(path.sep).join("/");
    const visit = (node) => {
      if (ts.isCallExpression(node) || (includeNew && ts.isNewExpression(node))) {
        const callee = calleeOf(node);
        if (callee) {
          const { nameNode, shape } = callee;
          const pos = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf));
          const { targets, external } = resolveSite(nameNode, node);
          const site = {
            path: relPath,
            line: pos.line + 1,
            column: pos.character + 1,
            name: nameNode.text,
            shape,
            targets,
          };
          if (external) site.external = true;
          sites.push(site);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  sites.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column));
  return { sites, files, lines };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  ensureHeap(args.heapMb);
  const root = path.resolve(args.dir);
  const t0 = performance.now();
  const { program, config } = buildProgram(root, args);
  const tProgram = performance.now();
  const { sites, files, lines } = collectSites(program, root, args.includeNew);
  const tResolve = performance.now();

  const out = args.out ? fs.openSync(args.out, "w") : 1;
  const chunk = [];
  for (const site of sites) {
    chunk.push(JSON.stringify(site));
    if (chunk.length >= 10000) fs.writeSync(out, chunk.splice(0).join("\n") + "\n");
  }
  if (chunk.length) fs.writeSync(out, chunk.join("\n") + "\n");
  if (args.out) fs.closeSync(out);

  const resolved = sites.filter((s) => s.targets.length).length;
  const external = sites.filter((s) => s.external).length;
  const summary = {
    project: root,
    tsconfig: config,
    include_new: args.includeNew,
    typescript: ts.version,
    files,
    lines,
    sites: sites.length,
    resolved_in_project: resolved,
    external,
    unresolved: sites.length - resolved - external,
    program_seconds: +((tProgram - t0) / 1000).toFixed(2),
    resolve_seconds: +((tResolve - tProgram) / 1000).toFixed(2),
    seconds: +((performance.now() - t0) / 1000).toFixed(2),
    // CPU time is the load-insensitive figure on a shared machine.
    cpu_seconds: +((process.cpuUsage().user + process.cpuUsage().system) / 1e6).toFixed(2),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    heap_used_mb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  };
  process.stderr.write(JSON.stringify(summary) + "\n");
}

main();
