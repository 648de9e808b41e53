import java.net.URI;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

/**
 * Prints each public class of the listed JDK packages with its direct supertypes, one a line:
 * the table src/astrag/lang/java/jdk.py holds (the Java room's view of the JDK's hierarchy,
 * for choosing overloads by argument type). Regenerate with JDK 17:
 *
 *   java scripts/JdkSupertypes.java PACKAGE... (the PACKAGES of jdk.py) > table
 */
public class JdkSupertypes {
    public static void main(String[] args) throws Exception {
        Set<String> pkgs = new HashSet<>(Arrays.asList(args));
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<String> out = new ArrayList<>();
        for (String pkg : pkgs) {
            Path dir = jrt.getPath("/modules/java.base/" + pkg.replace('.', '/'));
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    String f = p.getFileName().toString();
                    if (!f.endsWith(".class") || f.equals("module-info.class") || f.equals("package-info.class")) continue;
                    String bin = pkg + "." + f.substring(0, f.length() - 6);
                    Class<?> c;
                    try { c = Class.forName(bin, false, null); } catch (Throwable e) { continue; }
                    if (!java.lang.reflect.Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) continue;
                    Class<?> o = c;
                    boolean visible = true;
                    while (o.getEnclosingClass() != null) { o = o.getEnclosingClass(); if (!java.lang.reflect.Modifier.isPublic(o.getModifiers())) visible = false; }
                    if (!visible || c.getCanonicalName() == null) continue;
                    List<String> sup = new ArrayList<>();
                    if (c.getSuperclass() != null && c.getSuperclass() != Object.class) sup.add(c.getSuperclass().getCanonicalName());
                    for (Class<?> i : c.getInterfaces()) if (i.getCanonicalName() != null) sup.add(i.getCanonicalName());
                    out.add(c.getCanonicalName() + (sup.isEmpty() ? "" : " " + String.join(" ", sup)));
                }
            }
        }
        Collections.sort(out);
        out.forEach(System.out::println);
    }
}
