// Call-graph oracle for Java: javac's own answer to "what does this call resolve to?", used as
// ground truth by bench/graph_accuracy.py (same JSONL shape as ts_calls.mjs and jedi_calls.py).
//
// Every .java file under the root (but module-info.java, and build/VCS folders) is parsed and
// attributed by one JavacTask (JDK 17's com.sun.source API, plus javac's own tree and symbol
// classes for what the public API hides: generated constructors, the constructor an anonymous
// class calls). Each call site is resolved to the method or constructor javac binds it to:
//   MethodInvocationTree  f(), x.f(), this.f(), super.f(), this(...), super(...)
//   NewClassTree          new X(...), new X(...) { ... } (the superclass constructor it runs),
//                         and an enum constant's arguments, RED("r") (its enum's constructor)
//   MemberReferenceTree   X::f, x::f, X::new (rolled into the enclosing method, as astrag does)
// Annotations are not calls to javac and are not sites here.
//
// Output, one JSON object per line (stdout or --out), sorted: first every named definition
//   {"kind": "definition", "id", "path", "name", "line", "end_line", "source"}
// then every site
//   {"path", "line", "column", "name", "shape", "source", "targets": [{"path", "line", "kind",
//    "name", "id"}], "external"?}
// path is root-relative with "/", line/column are 1-based, column in UTF-16 code units (javac's
// unit; characters outside the astral planes). The site is the callee's name token: the
// identifier of f(), the name after the last dot of x.f(), "this"/"super" of a constructor
// call, the simple name of the class of new a.b.X<T>(), the name after :: ("new" for X::new),
// the constant's name for an enum constant. shape: "name" f(), "self" this.f(), "super"
// super.f(), "member" x.f() (X.this.f() too), "constructor" this(...)/super(...), "new",
// "enum", "methodref". "external": true marks a site javac resolved to a declaration outside
// the sources (the JDK, a jar on --classpath, a member javac generates without source such as
// an enum's values()); an unresolved site (a missing dependency) has no targets and no flag.
//
// Named definitions and their ids (astrag's Java symbol ids: path::Qualified.Name, a module is
// its path), qualified by the named definitions around them, lambdas being transparent:
//   classes, interfaces, enums, records, annotation types    C, Outer.Inner, m.Local (a local
//                                                             class inside method m)
//   anonymous classes                                        Enclosing.$1, $2, ... numbered in
//                                                             document order per enclosing def
//   an enum constant with a body                             E.CONST (a class, not a field)
//   methods; constructors                                    C.m; C.constructor
//   fields, enum constants, record components                C.f (not a call's source)
// A qualname declared twice under one parent (overloads; a field and a method of one name)
// gets #2, #3... in document order: C.m, C.m#2. A call's source is the innermost named
// definition around it other than a field (a field initializer's calls come from its class);
// outside every definition (never, in Java) it would be the file. A default constructor
// javac generates is its class; a record's generated accessor is its component field.
//
// Usage (JDK 17+; the source launcher compiles this file, which reads javac's own classes):
//   bench/oracles/java_calls.sh ROOT [--out FILE] [--classpath CP] [--release N] [--errors N]
// runs `java --add-exports=jdk.compiler/com.sun.tools.javac.{api,code,tree,util}=ALL-UNNAMED
// bench/oracles/JavaCalls.java ...`; --errors N prints the first N javac errors (missing
// dependencies: their calls are unresolved sites, not judged). A summary goes to stderr.

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import com.sun.tools.javac.code.Flags;
import com.sun.tools.javac.code.Kinds;
import com.sun.tools.javac.code.Symbol;
import com.sun.tools.javac.tree.JCTree;
import com.sun.tools.javac.tree.TreeInfo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaCalls {
    // as astrag's discovery skips them; a build-output name that directly holds .java files is
    // a package (commons-io has org.apache.commons.io.build)
    static final Set<String> SKIP_DIRS =
            Set.of(".git", "node_modules", "vendor", "third_party", ".gradle", ".idea", ".mvn");
    static final Set<String> OUTPUT_DIRS = Set.of("dist", "build", "out", "target", "coverage");

    /** A named definition: astrag-style id and where its name is. */
    record Def(String id, String path, String name, String kind, int line, int endLine,
               boolean source) {}

    public static void main(String[] argv) throws Exception {
        Path root = null;
        String out = null, classpath = null, release = null;
        int showErrors = 0;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--out" -> out = argv[++i];
                case "--classpath" -> classpath = argv[++i];
                case "--release" -> release = argv[++i];
                case "--errors" -> showErrors = Integer.parseInt(argv[++i]);
                default -> root = Paths.get(argv[i]).toAbsolutePath().normalize();
            }
        }
        if (root == null || !Files.isDirectory(root)) {
            System.err.println("usage: java_calls.sh ROOT [--out FILE] [--classpath CP]"
                    + " [--release N] [--errors N]");
            System.exit(2);
        }
        long t0 = System.nanoTime();
        List<Path> files = javaFiles(root);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager fm =
                compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        List<String> options = new ArrayList<>(List.of(
                "-proc:none", "-implicit:none", "-nowarn", "-Xlint:none", "-encoding", "UTF-8",
                "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW",
                "-Xmaxerrs", "1000000"));
        if (classpath != null) options.addAll(List.of("-classpath", classpath));
        if (release != null) options.addAll(List.of("--release", release));
        JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, options, null,
                fm.getJavaFileObjectsFromPaths(files));
        List<CompilationUnitTree> units = new ArrayList<>();
        task.parse().forEach(units::add);
        task.analyze();
        List<Diagnostic<? extends JavaFileObject>> errorList = diagnostics.getDiagnostics()
                .stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
        long errors = errorList.size();
        errorList.stream().limit(showErrors).forEach(d -> System.err.println(
                "javac: " + d.getSource().getName() + ":" + d.getLineNumber() + ": "
                        + d.getMessage(null).lines().findFirst().orElse("")));

        Trees trees = Trees.instance(task);
        Map<Symbol, Def> bySymbol = new IdentityHashMap<>();
        List<Def> defs = new ArrayList<>();
        for (CompilationUnitTree cu : units) {
            new Namer(trees, cu, rel(root, cu), bySymbol, defs).scan(cu, null);
        }
        List<String> sites = new ArrayList<>();
        int[] counts = new int[3]; // in project, external, unresolved
        for (CompilationUnitTree cu : units) {
            new Sites(trees, cu, rel(root, cu), bySymbol, sites, counts).scan(cu, null);
        }
        TreeMap<String, String> sortedDefs = new TreeMap<>();
        for (Def d : defs) {
            sortedDefs.put(d.path + "\0" + pad(d.line) + "\0" + d.id, defJson(d));
        }
        try (PrintStream ps = out == null ? System.out
                : new PrintStream(Files.newOutputStream(Paths.get(out)), false,
                        StandardCharsets.UTF_8)) {
            sortedDefs.values().forEach(ps::println);
            sites.stream().sorted().map(s -> s.substring(s.indexOf('\t') + 1))
                    .forEach(ps::println);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.err.printf(
                "{\"files\": %d, \"definitions\": %d, \"sites\": %d, \"in_project\": %d, "
                        + "\"external\": %d, \"unresolved\": %d, \"javac_errors\": %d, "
                        + "\"seconds\": %.1f}%n",
                files.size(), defs.size(), sites.size(), counts[0], counts[1], counts[2],
                errors, seconds);
    }

    // ---------------------------------------------------------------- files and launching

    static List<Path> javaFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .filter(p -> kept(root, p) && Files.isRegularFile(p))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    static boolean kept(Path root, Path file) {
        Path dir = root;
        Path rel = root.relativize(file);
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
            String name = rel.getName(i).toString();
            dir = dir.resolve(name);
            if (SKIP_DIRS.contains(name)) return false;
            if (OUTPUT_DIRS.contains(name) && !holdsJava(dir)) return false;
        }
        return true;
    }

    static boolean holdsJava(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.anyMatch(e -> e.toString().endsWith(".java") && Files.isRegularFile(e));
        } catch (IOException e) {
            return false;
        }
    }

    static String rel(Path root, CompilationUnitTree cu) {
        Path p = Paths.get(cu.getSourceFile().toUri());
        return root.relativize(p).toString().replace('\\', '/');
    }

    static String pad(long n) {
        return String.format("%09d", n);
    }

    // ---------------------------------------------------------------- JSON

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    static String defJson(Def d) {
        return "{\"kind\": \"definition\", \"id\": " + str(d.id) + ", \"path\": " + str(d.path)
                + ", \"name\": " + str(d.name) + ", \"line\": " + d.line + ", \"end_line\": "
                + d.endLine + ", \"source\": " + d.source + "}";
    }

    static String targetJson(Def d) {
        return "{\"path\": " + str(d.path) + ", \"line\": " + d.line + ", \"kind\": "
                + str(d.kind) + ", \"name\": " + str(d.name) + ", \"id\": " + str(d.id) + "}";
    }

    // ---------------------------------------------------------------- positions

    /** 1-based line and UTF-16 column of a character offset. */
    static long[] lineColumn(CompilationUnitTree cu, long pos) {
        LineMap map = cu.getLineMap();
        long line = map.getLineNumber(pos);
        return new long[] {line, pos - map.getStartPosition(line) + 1};
    }

    /** Offset of the simple name a type or name expression ends with (a.b.X<T> -> X). */
    static long nameStart(SourcePositions sp, CompilationUnitTree cu, Tree t) {
        while (true) {
            if (t instanceof JCTree.JCTypeApply ta) t = ta.clazz;
            else if (t instanceof JCTree.JCAnnotatedType at) t = at.underlyingType;
            else break;
        }
        if (t instanceof MemberSelectTree ms) {
            return sp.getEndPosition(cu, ms) - ms.getIdentifier().length();
        }
        return sp.getStartPosition(cu, t);
    }

    static String simpleName(Tree t) {
        while (true) {
            if (t instanceof JCTree.JCTypeApply ta) t = ta.clazz;
            else if (t instanceof JCTree.JCAnnotatedType at) t = at.underlyingType;
            else break;
        }
        if (t instanceof MemberSelectTree ms) return ms.getIdentifier().toString();
        if (t instanceof IdentifierTree id) return id.getName().toString();
        return t.toString();
    }

    // ---------------------------------------------------------------- definitions

    /** Names every definition the way astrag's Java frontend does; maps symbols to them. */
    static final class Namer extends TreePathScanner<Void, Void> {
        final Trees trees;
        final CompilationUnitTree cu;
        final String path;
        final SourcePositions sp;
        final Map<Symbol, Def> bySymbol;
        final List<Def> defs;
        final Deque<String> scopes = new ArrayDeque<>(); // qualnames of enclosing definitions
        final Map<String, Integer> taken = new HashMap<>(); // parent \0 name -> count
        final Map<String, Integer> anonymous = new HashMap<>(); // parent -> count

        Namer(Trees trees, CompilationUnitTree cu, String path, Map<Symbol, Def> bySymbol,
              List<Def> defs) {
            this.trees = trees;
            this.cu = cu;
            this.path = path;
            this.sp = trees.getSourcePositions();
            this.bySymbol = bySymbol;
            this.defs = defs;
            scopes.push("");
        }

        String qualify(String name) {
            String parent = scopes.peek();
            int n = taken.merge(parent + "\0" + name, 1, Integer::sum);
            String own = n == 1 ? name : name + "#" + n;
            return parent.isEmpty() ? own : parent + "." + own;
        }

        String id(String qual) {
            return path + "::" + qual;
        }

        Def add(String qual, String name, String kind, long namePos, Tree whole,
                boolean source) {
            long line = lineColumn(cu, namePos)[0];
            long end = lineColumn(cu, Math.max(sp.getEndPosition(cu, whole), namePos))[0];
            Def d = new Def(id(qual), path, name, kind, (int) line, (int) end, source);
            defs.add(d);
            return d;
        }

        @Override
        public Void visitClass(ClassTree t, Void v) {
            JCTree.JCClassDecl c = (JCTree.JCClassDecl) t;
            String simple = t.getSimpleName().toString();
            String name;
            long namePos;
            if (!simple.isEmpty()) {
                name = simple;
                namePos = TreeInfo.diagnosticPositionFor(c.sym, c).getPreferredPosition();
            } else {
                Tree parent = getCurrentPath().getParentPath().getLeaf();
                Tree grand = getCurrentPath().getParentPath().getParentPath().getLeaf();
                if (grand instanceof JCTree.JCVariableDecl vd
                        && (vd.mods.flags & Flags.ENUM) != 0) {
                    name = vd.name.toString(); // an enum constant with a body
                    namePos = vd.pos;
                } else {
                    name = "$" + anonymous.merge(scopes.peek(), 1, Integer::sum);
                    namePos = sp.getStartPosition(cu, parent);
                }
            }
            String qual = qualify(name);
            String kind = switch (t.getKind()) {
                case INTERFACE -> "interface";
                case ENUM -> "enum";
                case ANNOTATION_TYPE -> "annotation";
                default -> t.getKind().name().equals("RECORD") ? "record" : "class";
            };
            Def d = add(qual, name, kind, namePos, t, true);
            if (c.sym != null) bySymbol.put(c.sym, d);
            scopes.push(qual);
            try {
                return super.visitClass(t, v);
            } finally {
                scopes.pop();
            }
        }

        @Override
        public Void visitMethod(MethodTree t, Void v) {
            JCTree.JCMethodDecl m = (JCTree.JCMethodDecl) t;
            String owner = scopes.peek();
            long flags = m.mods.flags | (m.sym != null ? m.sym.flags() : 0);
            if ((flags & (Flags.GENERATEDCONSTR | Flags.GENERATED_MEMBER | Flags.ANONCONSTR))
                    != 0) {
                // a default constructor is its class; a record accessor its component field;
                // an anonymous class's constructor is nothing of its own (the superclass
                // constructor it calls is the site's target, Object's for an interface)
                Def target = null;
                Tree cls = getCurrentPath().getParentPath().getLeaf();
                boolean anonymous = cls instanceof JCTree.JCClassDecl cd && cd.name.isEmpty();
                if ((flags & Flags.ANONCONSTR) != 0 || anonymous) {
                    target = null;
                } else if ((flags & Flags.GENERATEDCONSTR) != 0) {
                    target = findDef(owner);
                } else {
                    target = findDef(owner + "." + m.name);
                }
                if (target != null && m.sym != null) bySymbol.put(m.sym, target);
                return null;
            }
            boolean ctor = m.name.toString().equals("<init>");
            String name = ctor ? "constructor" : m.name.toString();
            String qual = qualify(name);
            Def d = add(qual, name, ctor ? "constructor" : "method", m.pos, t, true);
            if (m.sym != null) bySymbol.put(m.sym, d);
            scopes.push(qual);
            try {
                return super.visitMethod(t, v);
            } finally {
                scopes.pop();
            }
        }

        Def findDef(String qual) {
            String want = id(qual);
            for (int i = defs.size() - 1; i >= 0; i--) {
                if (defs.get(i).id.equals(want)) return defs.get(i);
            }
            return null;
        }

        @Override
        public Void visitVariable(VariableTree t, Void v) {
            Tree parent = getCurrentPath().getParentPath().getLeaf();
            JCTree.JCVariableDecl vd = (JCTree.JCVariableDecl) t;
            boolean member = parent instanceof ClassTree;
            boolean bodied = vd.init instanceof JCTree.JCNewClass nc
                    && (vd.mods.flags & Flags.ENUM) != 0 && nc.def != null;
            if (member && !bodied) {
                String name = vd.name.toString();
                Def d = add(qualify(name), name, "field", vd.pos, t, false);
                if (vd.sym != null) bySymbol.put(vd.sym, d);
            }
            return super.visitVariable(t, v);
        }
    }

    // ---------------------------------------------------------------- call sites

    static final class Sites extends TreePathScanner<Void, Void> {
        final Trees trees;
        final CompilationUnitTree cu;
        final String path;
        final SourcePositions sp;
        final Map<Symbol, Def> bySymbol;
        final List<String> out;
        final int[] counts;
        final Deque<String> sources = new ArrayDeque<>();
        final String text;

        Sites(Trees trees, CompilationUnitTree cu, String path, Map<Symbol, Def> bySymbol,
              List<String> out, int[] counts) {
            this.trees = trees;
            this.cu = cu;
            this.path = path;
            this.sp = trees.getSourcePositions();
            this.bySymbol = bySymbol;
            this.out = out;
            this.counts = counts;
            try {
                this.text = cu.getSourceFile().getCharContent(true).toString();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            sources.push(path);
        }

        Void within(Symbol sym, Tree t, java.util.function.Supplier<Void> body) {
            Def d = sym == null ? null : bySymbol.get(sym);
            if (d == null) return body.get();
            sources.push(d.id);
            try {
                return body.get();
            } finally {
                sources.pop();
            }
        }

        @Override
        public Void visitClass(ClassTree t, Void v) {
            return within(((JCTree.JCClassDecl) t).sym, t, () -> super.visitClass(t, v));
        }

        @Override
        public Void visitMethod(MethodTree t, Void v) {
            JCTree.JCMethodDecl m = (JCTree.JCMethodDecl) t;
            long flags = m.mods.flags | (m.sym != null ? m.sym.flags() : 0);
            if ((flags & (Flags.GENERATEDCONSTR | Flags.GENERATED_MEMBER | Flags.ANONCONSTR))
                    != 0) {
                return null; // no source: its implicit super() is no site
            }
            return within(m.sym, t, () -> super.visitMethod(t, v));
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
            ExpressionTree select = t.getMethodSelect();
            String name;
            long pos;
            String shape;
            if (select instanceof MemberSelectTree ms) {
                name = ms.getIdentifier().toString();
                pos = sp.getEndPosition(cu, ms) - name.length();
                String recv = ms.getExpression().toString();
                shape = recv.equals("this") ? "self" : recv.equals("super") ? "super" : "member";
            } else {
                name = ((IdentifierTree) select).getName().toString();
                pos = sp.getStartPosition(cu, select);
                shape = name.equals("this") || name.equals("super") ? "constructor" : "name";
            }
            record(pos, name, shape, TreeInfo.symbol((JCTree) select));
            return super.visitMethodInvocation(t, v);
        }

        @Override
        public Void visitNewClass(NewClassTree t, Void v) {
            JCTree.JCNewClass nc = (JCTree.JCNewClass) t;
            Tree parent = getCurrentPath().getParentPath().getLeaf();
            Symbol ctor = nc.constructor;
            if (nc.def != null && nc.def.sym != null) {
                // the superclass constructor it runs; an interface's anonymous class runs
                // Object's (external)
                Symbol sup = anonymousSuper(nc.def);
                if (sup != null) ctor = sup;
            }
            if (parent instanceof JCTree.JCVariableDecl vd && (vd.mods.flags & Flags.ENUM) != 0
                    && vd.init == nc) {
                record(vd.pos, vd.name.toString(), "enum", ctor);
            } else {
                record(nameStart(sp, cu, t.getIdentifier()), simpleName(t.getIdentifier()),
                        "new", ctor);
            }
            return super.visitNewClass(t, v);
        }

        /** The superclass constructor the anonymous class's generated constructor calls. */
        Symbol anonymousSuper(JCTree.JCClassDecl def) {
            for (JCTree member : def.defs) {
                if (member instanceof JCTree.JCMethodDecl m
                        && (m.mods.flags & Flags.ANONCONSTR) != 0 && m.body != null) {
                    for (JCTree.JCStatement s : m.body.stats) {
                        if (s instanceof JCTree.JCExpressionStatement es
                                && es.expr instanceof JCTree.JCMethodInvocation mi) {
                            return TreeInfo.symbol(mi.meth);
                        }
                    }
                }
            }
            return null;
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree t, Void v) {
            JCTree.JCMemberReference mr = (JCTree.JCMemberReference) t;
            boolean ctor = mr.getMode() == MemberReferenceTree.ReferenceMode.NEW;
            String name = ctor ? "new" : mr.name.toString();
            long pos = sp.getEndPosition(cu, t) - name.length();
            record(pos, name, "methodref", mr.sym);
            return super.visitMemberReference(t, v);
        }

        /** A record's implicit accessor x() (javac makes it without a tree): the component. */
        Def recordAccessor(Symbol sym) {
            Symbol owner = sym.owner;
            if (owner == null || (owner.flags() & Flags.RECORD) == 0
                    || sym.getKind() != ElementKind.METHOD) {
                return null;
            }
            Def cls = bySymbol.get(owner);
            if (cls == null) return null;
            for (Symbol member : owner.getEnclosedElements()) {
                if (member.getKind() == ElementKind.FIELD && member.name == sym.name) {
                    return bySymbol.get(member);
                }
            }
            return null;
        }

        void record(long pos, String name, String shape, Symbol sym) {
            // javac writes an implicit super() into constructors; it is not in the text
            if (pos < 0 || pos + name.length() > text.length()
                    || !text.regionMatches((int) pos, name, 0, name.length())) {
                return;
            }
            long[] lc = lineColumn(cu, pos);
            StringBuilder b = new StringBuilder();
            b.append("{\"path\": ").append(str(path)).append(", \"line\": ").append(lc[0])
                    .append(", \"column\": ").append(lc[1]).append(", \"name\": ")
                    .append(str(name)).append(", \"shape\": ").append(str(shape))
                    .append(", \"source\": ").append(str(sources.peek()));
            Def target = null;
            boolean resolved = sym != null && sym.kind != Kinds.Kind.ERR
                    && sym.type != null && !sym.type.isErroneous()
                    && (sym.getKind() == ElementKind.METHOD
                        || sym.getKind() == ElementKind.CONSTRUCTOR);
            if (resolved) target = bySymbol.get(sym.baseSymbol());
            if (resolved && target == null) target = recordAccessor(sym.baseSymbol());
            if (target != null) {
                b.append(", \"targets\": [").append(targetJson(target)).append("]}");
                counts[0]++;
            } else if (resolved) {
                b.append(", \"targets\": [], \"external\": true}");
                counts[1]++;
            } else {
                b.append(", \"targets\": []}");
                counts[2]++;
            }
            out.add(path + "\0" + pad(lc[0]) + "\0" + pad(lc[1]) + "\0" + name + "\t" + b);
        }
    }

}
