import { ExternalLinkIcon, InfoIcon, KeyRoundIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { forgetPosApiKey, getStoredPosApiKey, keyHint } from '@/lib/pos-api-key';
import { useTheme } from '@/lib/theme';
import { notify } from '@/lib/toast';
import { applyFrameTheme, POS_SCHEME, whenSwaggerReady } from './swagger-auth';

// The console's own Swagger UI page (apps/web/pos-api-docs/, built with Swagger UI by build/pos-api-docs.ts): its theme, POS endpoints first. Swagger UI's
// bundle is fetched by that page only, so no other screen downloads it.
const DOCS_URL = '/pos-api-docs.html';

/**
 * Spec section 2 "POS API": the interactive documentation (same origin, allowed in a frame by the
 * server's frame-ancestors 'self'), in the console's theme. A POS key stored from the POS Keys screen is handed to
 * Swagger UI's Authorize, so 'Try it out' sends it as X-API-Key without typing it.
 */
export function PosApiPage() {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [storedKey, setStoredKey] = useState(getStoredPosApiKey);
  const [loaded, setLoaded] = useState(0);
  const dark = useTheme() === 'dark';

  useEffect(() => {
    if (loaded > 0) applyFrameTheme(frameRef.current, dark);
  }, [dark, loaded]);

  useEffect(() => {
    if (!storedKey || loaded === 0) return;
    return whenSwaggerReady(frameRef.current, (ui) => ui.preauthorizeApiKey(POS_SCHEME, storedKey));
  }, [storedKey, loaded]);

  const forget = () => {
    forgetPosApiKey();
    setStoredKey(null);
    whenSwaggerReady(frameRef.current, (ui) => ui.authActions.logout([POS_SCHEME]), 0);
    // Through lib/toast, not sonner itself: /pos-api is a first screen too, and sonner (~8 kB compressed)
    // is only needed once the key is forgotten (the shell has loaded it by then).
    notify.success('Stored API key removed');
  };

  return (
    <>
      <PageHeader
        title="POS API"
        description="Interactive documentation of the POS API, then the admin API."
        actions={
          <Button variant="outline" asChild>
            <a href={DOCS_URL} target="_blank" rel="noopener noreferrer">
              <ExternalLinkIcon />
              Open in new tab
            </a>
          </Button>
        }
      />
      <div className="-mt-2 flex flex-wrap items-start gap-x-4 gap-y-2 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
        <p className="flex min-w-0 flex-1 basis-80 gap-2">
          <InfoIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            POS calls are authorised with a POS API key: click <strong>Authorize</strong> and enter the key
            under <code className="rounded bg-muted px-1 font-mono text-xs">apiKey</code> (sent as the{' '}
            <code className="rounded bg-muted px-1 font-mono text-xs">X-API-Key</code> header), then use{' '}
            <strong>Try it out</strong>.
          </span>
        </p>
        {storedKey && (
          <div className="flex items-center gap-2">
            <KeyRoundIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span>
              Stored key <span className="font-mono">{keyHint(storedKey)}</span> is applied to Authorize.
            </span>
            <Button variant="ghost" size="sm" className="h-7" onClick={forget}>
              Forget key
            </Button>
          </div>
        )}
      </div>
      <iframe
        ref={frameRef}
        src={DOCS_URL}
        title="POS API documentation"
        onLoad={() => setLoaded((n) => n + 1)}
        className="min-h-[32rem] w-full flex-1 rounded-lg border bg-background"
      />
    </>
  );
}
