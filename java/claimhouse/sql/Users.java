package claimhouse.sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The SQL endpoint's users, read from the file `claimhouse users` writes (lake/users.py): one
 * line per user, `name:role:iterations:salt_hex:pbkdf2_sha256_hex`. The file's path is the JVM
 * system property `claimhouse.users.file`, set by `claimhouse serve-sql` before the server
 * starts. The file is read again whenever it changes, so users added or removed while the
 * server runs take effect at their next connection.
 */
public final class Users {
  public static final String FILE_PROPERTY = "claimhouse.users.file";

  private static final class Entry {
    final String role;
    final int iterations;
    final byte[] salt;
    final byte[] hash;

    Entry(String role, int iterations, byte[] salt, byte[] hash) {
      this.role = role;
      this.iterations = iterations;
      this.salt = salt;
      this.hash = hash;
    }
  }

  private static Map<String, Entry> cached = new HashMap<>();
  private static String cachedStamp = null;
  private static String cachedPath = null;

  private Users() {}

  private static synchronized Map<String, Entry> load() throws IOException {
    String file = System.getProperty(FILE_PROPERTY);
    if (file == null) {
      return new HashMap<>();
    }
    Path path = Paths.get(file);
    // lake.users replaces the file by a rename: a new file key (inode) at every change.
    String stamp = "absent";
    if (Files.exists(path)) {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      stamp = attributes.fileKey() + "/" + attributes.lastModifiedTime() + "/" + attributes.size();
    }
    if (file.equals(cachedPath) && stamp.equals(cachedStamp)) {
      return cached;
    }
    Map<String, Entry> users = new HashMap<>();
    if (!"absent".equals(stamp)) {
      List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
      for (String line : lines) {
        String[] parts = line.trim().split(":");
        if (parts.length != 5) {
          continue;
        }
        HexFormat hex = HexFormat.of();
        users.put(
            parts[0],
            new Entry(parts[1], Integer.parseInt(parts[2]), hex.parseHex(parts[3]), hex.parseHex(parts[4])));
      }
    }
    cached = users;
    cachedStamp = stamp;
    cachedPath = file;
    return users;
  }

  /** True when the password is the user's. */
  public static boolean check(String user, String password) {
    try {
      Entry entry = load().get(user);
      if (entry == null || password == null) {
        return false;
      }
      PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), entry.salt, entry.iterations, entry.hash.length * 8);
      byte[] got = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
      return MessageDigest.isEqual(got, entry.hash);
    } catch (Exception e) {
      return false;
    }
  }

  /** The user's role: `writer` when the file says so, else `reader`. */
  public static String role(String user) {
    try {
      Entry entry = load().get(user);
      return entry != null && "writer".equals(entry.role) ? "writer" : "reader";
    } catch (IOException e) {
      return "reader";
    }
  }
}
