package claimhouse.sql;

import java.nio.charset.StandardCharsets;
import java.security.Provider;
import java.security.Security;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.AuthenticationException;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;

/**
 * SASL PLAIN for the SQL endpoint, ahead of Hive's own (`install` puts it first among the
 * JVM's security providers, before the Thrift server starts). Hive's server answers every
 * refused login with "Error validating the login" and logs the reason with a stack trace; this
 * one sends the client the reason (PasswordFileAuthenticator's message, which never repeats
 * the password) and logs one line.
 */
public final class PlainLogin extends Provider {
  private static final long serialVersionUID = 1L;
  private static final String NAME = "ClaimhousePlainLogin";

  public PlainLogin() {
    super(NAME, "1.0", "SASL PLAIN with the reason for a refused login");
    put("SaslServerFactory.PLAIN", Factory.class.getName());
  }

  // The server log's own layout (lake/conf/log4j2.properties), on the same stream: a logger of
  // a class loaded from spark.jars gets a log4j context of its own, which printed nothing.
  private static void log(String message) {
    String time = LocalTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss"));
    System.err.println(time + " WARN login: " + message);
  }

  /** Idempotent: one provider per JVM, first in the list. */
  public static synchronized void install() {
    if (Security.getProvider(NAME) == null) {
      Security.insertProviderAt(new PlainLogin(), 1);
    }
  }

  public static final class Factory implements SaslServerFactory {
    @Override
    public SaslServer createSaslServer(
        String mechanism, String protocol, String serverName, Map<String, ?> props,
        CallbackHandler handler) {
      return "PLAIN".equals(mechanism) ? new Server() : null;
    }

    @Override
    public String[] getMechanismNames(Map<String, ?> props) {
      return new String[] {"PLAIN"};
    }
  }

  static final class Server implements SaslServer {
    private String user;

    @Override
    public String getMechanismName() {
      return "PLAIN";
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
      // RFC 4616: [authzid] NUL authcid NUL passwd
      String[] parts = new String(response, StandardCharsets.UTF_8).split("\u0000", -1);
      if (parts.length != 3 || parts[1].isEmpty()) {
        log("refused a login that names no user (not SASL PLAIN)");
        throw new SaslException("a login needs a user name and a password (SASL PLAIN)");
      }
      try {
        new PasswordFileAuthenticator().Authenticate(parts[1], parts[2]);
      } catch (AuthenticationException refused) {
        log("refused the login of '" + parts[1] + "': " + refused.getMessage());
        throw new SaslException(refused.getMessage());
      }
      user = parts[1];
      return null;
    }

    @Override
    public boolean isComplete() {
      return user != null;
    }

    @Override
    public String getAuthorizationID() {
      return user;
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) {
      throw new IllegalStateException("PLAIN has no security layer");
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) {
      throw new IllegalStateException("PLAIN has no security layer");
    }

    @Override
    public Object getNegotiatedProperty(String name) {
      return null;
    }

    @Override
    public void dispose() {}
  }
}
