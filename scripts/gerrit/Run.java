// Minimal launcher for Gerrit's programs (com.google.gerrit.pgm.Init, Daemon, ...) on a plain classpath.
//
// Gerrit's release war is not on Maven Central; its classes are, in gerrit-acceptance-framework
// and gerrit-plugin-api. Gerrit's own GerritLauncher only runs from a war or a bazel tree, so this
// does what its invokeProgram does: instantiate the program class and call its main(String[]).
// Usage: java -cp <classpath> Run <Program> [args...]    e.g. Run Init --batch -d SITE
public class Run {
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: Run <Init|Daemon|Reindex|...> [args...]");
      System.exit(2);
    }
    Class<?> c = Class.forName("com.google.gerrit.pgm." + args[0]);
    Object prog = c.getDeclaredConstructor().newInstance();
    String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
    Object rc;
    try {
      rc = c.getMethod("main", String[].class).invoke(prog, (Object) rest);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
    }
    System.exit(rc instanceof Number ? ((Number) rc).intValue() : 0);
  }
}
