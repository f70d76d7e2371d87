package claimhouse.sql;

import javax.security.sasl.AuthenticationException;
import org.apache.hive.service.auth.PasswdAuthenticationProvider;

/**
 * HiveServer2's CUSTOM authentication (`hive.server2.authentication=CUSTOM`): a client's user
 * name and password must match the users file (Users). The message never repeats the password.
 */
public final class PasswordFileAuthenticator implements PasswdAuthenticationProvider {
  @Override
  public void Authenticate(String user, String password) throws AuthenticationException {
    if (!Users.check(user, password)) {
      throw new AuthenticationException(
          "wrong user name or password for '" + user + "' (users: claimhouse users list)");
    }
  }
}
