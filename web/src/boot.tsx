import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './app/i18n';
import './app/global.css';
import { App } from './app/App';

// The chosen language's login catalogues are a small chunk of their own (app/i18n.ts).
void i18nReady.then(() =>
  createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
  ),
);
