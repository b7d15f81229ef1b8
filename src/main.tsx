// The React 19 compatibility patch must load before antd is used: antd 5 renders its static toasts and dialogs through it.
import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './app/App';
import { installBrowserCloseRule } from './app/browserClose';
import { installErrorReporting } from './app/errorLogger';
import './app/global.css';

installErrorReporting();
installBrowserCloseRule();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
