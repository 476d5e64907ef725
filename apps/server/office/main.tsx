/** The back office page, served at `/office/`. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { OfficeLanguage } from './language.tsx';
import { SessionProvider } from './session.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <OfficeLanguage>
        <App />
      </OfficeLanguage>
    </SessionProvider>
  </StrictMode>,
);
