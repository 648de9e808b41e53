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

// ---- Named definitions: the graph's nodes, at the granularity calls are scored at -----------
//
// A call's *source* is the innermost named definition around it, a target's *id* the named
// definition it declares; ids are astrag's symbol ids, `path::Outer.inner` (a module's id is
// its path). Named definitions, each named as listed and qualified by the named definitions
// and containers around it (anonymous functions in between are transparent):
//   function f() {}                          f
//   class C {} / const C = class {}           C (a named class expression: its own name)
//   class members: methods, accessors,        C.m, C.constructor
//     constructor, fields holding a function  C.handler   (handler = () => ...)
//   const/let/var f = () => ... | function    f, at any depth: `outer.f` inside outer()
//   named function expression elsewhere       its name: forwardRef(function Foo() {}) -> Foo
//   export default function () {} / () => {}  default
//   X.prototype.m = function / arrow / class  X.m
//   a.b = function / arrow / class            a.b (receiver: a chain of names from one the file
//                                             declares at top level); exports.b,
//                                             module.exports.b -> b
//   object literal bound to a module-level    api.get, api.nested.put; module.exports = {...}
//     name: its methods and function members    members -> get
// Containers (never a call's source, only a qualifier and a target): namespaces, interfaces
// and type aliases (their method/property signatures: I.m), enums, a module-level variable
// holding an object literal. Anything else declared inside a definition (a variable, a field,
// a parameter) is `<definition id>.<name>`; `module.exports = function () {}` is the module.
// A qualname declared twice in one file gets `#2`, `#3`... in document order; overload
// signatures (no body) share their implementation's id, and so do declarations the compiler
// merges into one symbol (declaration merging: `interface X {}` + `class X {}`, two
// `interface X`, a namespace with a class, function, enum or namespace of its name): the
// checker has one symbol for them, so they are one definition and their members one set.
// A decorator's call comes from the member it decorates, a plain field (`@Field() name`, source
// `C.name`) included, as astrag attributes decorators.

const unwrap = (expr) => {
  while (
    expr &&
    (ts.isParenthesizedExpression(expr) ||
      ts.isAsExpression(expr) ||
      ts.isSatisfiesExpression(expr) ||
      ts.isNonNullExpression(expr) ||
      ts.isTypeAssertionExpression(expr))
  )
    expr = expr.expression;
  return expr;
};
// `(x)`, `x as T`, `x satisfies T` around an expression: the node its parent sees.
const outermostWrapper = (expr) => {
  let node = expr;
  while (node.parent && (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent) || ts.isSatisfiesExpression(node.parent)))
    node = node.parent;
  return node;
};
const isFunctionValue = (expr) =>
  !!expr && (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr) || ts.isClassExpression(expr));

// `a.b.c` as a dotted name, or null when the chain holds anything but identifiers/property
// names. `X.prototype.m` drops `prototype`; `exports.x` / `module.exports.x` drop the prefix.
function dottedName(expr) {
  const parts = [];
  let e = expr;
  while (ts.isPropertyAccessExpression(e)) {
    parts.unshift(e.name.text);
    e = e.expression;
  }
  if (!ts.isIdentifier(e) || !moduleNames(e.getSourceFile()).has(e.text)) return null;
  parts.unshift(e.text);
  if (parts[0] === "module" && parts[1] === "exports") parts.splice(0, 2);
  else if (parts[0] === "exports") parts.splice(0, 1);
  const proto = parts.indexOf("prototype");
  if (proto > 0) parts.splice(proto, 1);
  return parts.length ? parts.join(".") : null;
}

// Names a file declares at its top level (plus CommonJS's `module` and `exports`): the only
// receivers whose `a.b = function` assignments make named definitions. A parameter's or a
// local's (`inst._zod.parse = ...` inside a callback) stays anonymous.
const moduleNamesCache = new WeakMap();
function moduleNames(sf) {
  let names = moduleNamesCache.get(sf);
  if (names) return names;
  names = new Set(["module", "exports"]);
  const addBinding = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name))
      for (const el of name.elements) if (!ts.isOmittedExpression(el)) addBinding(el.name);
  };
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) st.declarationList.declarations.forEach((d) => addBinding(d.name));
    else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isModuleDeclaration(st)) && st.name)
      names.add(st.name.text);
    else if (ts.isImportDeclaration(st) && st.importClause) {
      const clause = st.importClause;
      if (clause.name) names.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      else if (bindings) bindings.elements.forEach((el) => names.add(el.name.text));
    } else if (ts.isImportEqualsDeclaration(st)) names.add(st.name.text);
  }
  moduleNamesCache.set(sf, names);
  return names;
}

const isModuleLevel = (node) => {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isSourceFile(n) || ts.isModuleBlock(n)) return true;
    if (ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n)) return false;
  }
  return true;
};

// The dotted owner of an object literal whose members are named definitions: a module-level
// variable (`const api = {...}`), a member of such a literal, or `module.exports = {...}` ("").
function objectLiteralOwner(obj) {
  const node = outermostWrapper(obj);
  const parent = node.parent;
  if (!parent) return null;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name))
    return isModuleLevel(parent) ? parent.name.text : null;
  if (ts.isPropertyAssignment(parent) && parent.initializer === node && ts.isObjectLiteralExpression(parent.parent)) {
    const outer = objectLiteralOwner(parent.parent);
    const name = propertyNameText(parent.name);
    return outer === null || name === null ? null : outer ? `${outer}.${name}` : name;
  }
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const left = parent.left.getText();
    return (left === "module.exports" || left === "exports") && isModuleLevel(parent) ? "" : null;
  }
  return null;
}

function propertyNameText(name) {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
    return name.text;
  return null;
}

// What a node defines: {name, source} (source: a call inside can come from it), or null.
// `name` may be dotted (`X.m`, `api.get`); the caller qualifies it with the enclosing ids.
function definitionOf(node) {
  if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
    if (node.name) return { name: node.name.text, source: true };
    if (ts.isClassExpression(node)) return boundName(node);
    // `export default function () {}`: importers call it by the name "default".
    const isDefault = (node.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    return isDefault ? { name: "default", source: true } : null;
  }
  if (ts.isConstructorDeclaration(node)) return { name: "constructor", source: true };
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const name = propertyNameText(node.name);
    if (name === null) return null;
    if (ts.isObjectLiteralExpression(node.parent)) {
      const member = memberName(node.parent, name);
      return member === null ? null : { name: member, source: true };
    }
    return { name, source: true };
  }
  if (ts.isPropertyDeclaration(node) && isFunctionValue(unwrap(node.initializer))) {
    const name = propertyNameText(node.name);
    return name === null ? null : { name, source: true };
  }
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) {
    const bound = boundName(node);
    if (bound) return bound;
    if (ts.isFunctionExpression(node) && node.name) return { name: node.name.text, source: true };
    return null;
  }
  if (ts.isModuleDeclaration(node) && ts.isIdentifier(node.name)) return { name: node.name.text, source: false };
  if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node))
    return { name: node.name.text, source: false };
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
    const init = unwrap(node.initializer);
    if (init && ts.isObjectLiteralExpression(init) && isModuleLevel(node)) return { name: node.name.text, source: false };
  }
  return null;
}

// The name a function or class expression is bound to: `const f = ...`, `class { f = ... }`
// (handled by its PropertyDeclaration), `a.b = ...`, `{ f: ... }` in a named object literal.
function boundName(fn) {
  const node = outermostWrapper(fn);
  const parent = node.parent;
  if (!parent) return null;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name))
    return { name: parent.name.text, source: true, via: parent };
  if (ts.isPropertyDeclaration(parent) && parent.initializer === node) return null; // the field is the definition
  if (ts.isExportAssignment(parent) && !parent.isExportEquals) return { name: "default", source: true, via: parent };
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const name = ts.isPropertyAccessExpression(parent.left) ? dottedName(parent.left) : null;
    return name ? { name, source: true, via: parent.left } : null;
  }
  if (ts.isPropertyAssignment(parent) && parent.initializer === node && ts.isObjectLiteralExpression(parent.parent)) {
    const name = propertyNameText(parent.name);
    const member = name === null ? null : memberName(parent.parent, name);
    return member === null ? null : { name: member, source: true, via: parent };
  }
  return null;
}

// A member of a named object literal, relative to the module-level variable holding it (that
// variable is a container, so it already qualifies the member): `api.nested.put` -> "nested.put".
function memberName(obj, name) {
  const owner = objectLiteralOwner(obj);
  if (owner === null) return null;
  const inner = owner.split(".").slice(1).join(".");
  return inner ? `${inner}.${name}` : name;
}

// Declarations that merge with another of the same name into one symbol (two functions or
// two classes do not: a JS redefinition is a second definition, as is an accessor pair).
const isMergeable = (node) =>
  ts.isInterfaceDeclaration(node) || ts.isModuleDeclaration(node) || ts.isEnumDeclaration(node) ||
  ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node);
const isAugmenting = (node) =>
  ts.isInterfaceDeclaration(node) || ts.isModuleDeclaration(node) || ts.isEnumDeclaration(node);
function mergesWith(earlier, node, checker) {
  if (!isMergeable(earlier) || !isMergeable(node)) return false;
  if (!isAugmenting(earlier) && !isAugmenting(node)) return false;
  const a = earlier.name && checker.getSymbolAtLocation(earlier.name);
  return !!a && a === (node.name && checker.getSymbolAtLocation(node.name));
}

const isOverloadSignature = (node) =>
  (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)) &&
  !node.body &&
  !(node.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.AbstractKeyword) &&
  !ts.isInterfaceDeclaration(node.parent);

// One file's named definitions: ids by node (the definition node, and for bound functions the
// declaration the checker names: the variable, property assignment or `a.b` target).
function definitionTable(sf, relPath, checker) {
  const byNode = new Map();
  const list = [];
  const seen = new Map();
  const first = new Map(); // qual -> {node, id}: the declaration a later one may merge with
  const visit = (node, prefix) => {
    let childPrefix = prefix;
    const def = definitionOf(node);
    if (def) {
      const qual = prefix ? `${prefix}.${def.name}` : def.name;
      let id;
      if (isOverloadSignature(node)) {
        id = `${relPath}::${qual}`;
      } else {
        const earlier = first.get(qual);
        if (earlier && mergesWith(earlier.node, node, checker)) {
          id = earlier.id;
        } else {
          const n = (seen.get(qual) ?? 0) + 1;
          seen.set(qual, n);
          id = `${relPath}::${qual}${n > 1 ? `#${n}` : ""}`;
          if (!earlier) first.set(qual, { node, id });
        }
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
        list.push({ kind: "definition", id, path: relPath, name: def.name.split(".").pop(), line: start, end_line: end, source: def.source });
      }
      byNode.set(node, { id, source: def.source });
      if (def.via) byNode.set(def.via, { id, source: false });
      childPrefix = id.slice(relPath.length + 2);
    }
    ts.forEachChild(node, (child) => visit(child, childPrefix));
  };
  visit(sf, "");
  return { byNode, list };
}

const isAnonymousMember = (decl) =>
  !!decl.parent &&
  ts.isObjectLiteralExpression(decl.parent) &&
  (ts.isPropertyAssignment(decl) || ts.isShorthandPropertyAssignment(decl) || ts.isMethodDeclaration(decl) || ts.isAccessor(decl));

function makeResolver(root, checker) {
  const ownFile = (fileName) => {
    const rel = path.relative(root, fileName);
    return !rel.startsWith("..") && !path.isAbsolute(rel) && !rel.split(path.sep).includes("node_modules");
  };
  const relPath = (fileName) => path.relative(root, fileName).split(path.sep).join("/");
  const tables = new Map(); // SourceFile -> definitionTable
  const tableOf = (sf) => {
    let table = tables.get(sf);
    if (!table) tables.set(sf, (table = definitionTable(sf, relPath(sf.fileName), checker)));
    return table;
  };

  // The id of what a declaration declares (see "Named definitions" above).
  const idOf = (decl, name) => {
    const sf = decl.getSourceFile();
    const { byNode } = tableOf(sf);
    const own = byNode.get(decl);
    if (own) return own.id;
    // `module.exports = function query() {}`: the function's own definition; an anonymous
    // one is no definition, and what the module exports is the module.
    if (ts.isBinaryExpression(decl)) {
      const right = byNode.get(unwrap(decl.right));
      if (right) return right.id;
      const left = decl.left.getText();
      if (left === "module.exports" || left === "exports") return relPath(sf.fileName);
    }
    // A constructor parameter property and a JS `this.x = ...` belong to the class (or the
    // constructor function), not to the method that declares them.
    const member =
      ts.isParameterPropertyDeclaration(decl, decl.parent) ||
      (ts.isPropertyAccessExpression(decl) && decl.expression.kind === ts.SyntaxKind.ThisKeyword) ||
      (ts.isBinaryExpression(decl) &&
        ts.isPropertyAccessExpression(decl.left) &&
        decl.left.expression.kind === ts.SyntaxKind.ThisKeyword);
    for (let node = decl.parent; node; node = node.parent) {
      const entry = byNode.get(node);
      if (!entry) continue;
      if (member && (ts.isConstructorDeclaration(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node))) continue;
      return `${entry.id}.${name ?? "?"}`;
    }
    return `${relPath(sf.fileName)}::${name ?? "?"}`;
  };

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

  function resolveSite(nameNode, expr) {
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
        const id = idOf(decl, name);
        const target = { path: relPath(sf.fileName), line, kind: KIND_NAMES.get(decl.kind), name, id };
        if (via) target.via = via;
        // A local bound to a function is a named definition (a graph node), not a local; a
        // member of an object literal that is no named definition's has no node either.
        const named = tableOf(sf).byNode.has(decl);
        if (!named && (isLocalDeclaration(decl) || isAnonymousMember(decl))) target.local = true;
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
  }
  return { resolveSite, tableOf };
}

function collectSites(program, root, includeNew) {
  const checker = program.getTypeChecker();
  const { resolveSite, tableOf } = makeResolver(root, checker);
  const sites = [];
  const definitions = [];
  let files = 0;
  let lines = 0;
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile) continue;
    const rel = path.relative(root, sf.fileName);
    if (rel.startsWith("..") || rel.split(path.sep).includes("node_modules")) continue;
    files++;
    lines += sf.getLineStarts().length;
    const relPath = rel.split(path.sep).join("/");
    const { byNode, list } = tableOf(sf);
    definitions.push(...list);
    // source: the innermost named definition around the node (the module when none).
    const visit = (node, source) => {
      const entry = byNode.get(node);
      if (entry?.source) source = entry.id;
      // A decorator is called by the member it decorates (astrag's rule), a plain field too.
      const field = ts.isDecorator(node) && ts.isPropertyDeclaration(node.parent) && !byNode.has(node.parent);
      if (field && propertyNameText(node.parent.name) !== null) source = `${source}.${propertyNameText(node.parent.name)}`;
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
            source,
            targets,
          };
          if (external) site.external = true;
          sites.push(site);
        }
      }
      ts.forEachChild(node, (child) => visit(child, source));
    };
    visit(sf, relPath);
  }
  const byPosition = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  sites.sort(byPosition);
  definitions.sort(byPosition);
  return { sites, definitions, files, lines };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  ensureHeap(args.heapMb);
  const root = path.resolve(args.dir);
  const t0 = performance.now();
  const { program, config } = buildProgram(root, args);
  const tProgram = performance.now();
  const { sites, definitions, files, lines } = collectSites(program, root, args.includeNew);
  const tResolve = performance.now();

  const out = args.out ? fs.openSync(args.out, "w") : 1;
  const chunk = [];
  for (const record of [...sites, ...definitions]) {
    chunk.push(JSON.stringify(record));
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
    definitions: definitions.length,
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
