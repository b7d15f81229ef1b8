import { useSearchParams } from 'react-router-dom';
import { loginWithRegionalSso } from '../../app/auth';
import SsoHandshake from './SsoHandshake';

/**
 * /ynSsologin and /ynbsc (the regional entries, see SIGN_IN_ROUTES in src/app/routes.ts): the
 * regional identity provider hands over reqInfoBase64Str and ynSsoToken.
 */
export default function YnSsoLoginPage() {
  const [params] = useSearchParams();
  const reqInfo = params.get('reqInfoBase64Str');
  const token = params.get('ynSsoToken');
  return <SsoHandshake signIn={reqInfo && token ? () => loginWithRegionalSso(reqInfo, token) : null} />;
}
