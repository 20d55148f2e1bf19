import type { ImportKind, ImportReport } from '@loyalty/contracts';
import { useMutation } from '@tanstack/react-query';
import { TriangleAlertIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ForbiddenState } from '@/components/feedback/forbidden-state';
import { FormAlert } from '@/components/feedback/form-alert';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { formatDateTime } from '@/lib/format';
import { getErrorMessage, handleServerError } from '@/lib/handle-server-error';
import { FileDrop } from './file-drop';
import { KindPicker, SkipInvalidOption } from './import-options';
import { ImportProgress } from './import-progress';
import { ImportReportView } from './import-report';
import { type ImportRequest, postImport } from './imports-api';

function resultTitle(result: ImportReport, alreadyImported: boolean): string {
  if (!result.importId) return 'Nothing imported';
  return alreadyImported ? 'Already imported' : 'Imported';
}

function resultNote(result: ImportReport, alreadyImported: boolean): string {
  if (!result.importId) return 'The file was not imported.';
  if (alreadyImported)
    return 'This file was imported before, with these results; nothing was written now. The import is recorded in the audit log.';
  return 'The import is recorded in the audit log.';
}

/**
 * A checked bulk credit file whose rows an earlier import already credited (`duplicateOf`): the same rows saved
 * again are another file to the server, which would credit them again. Import waits for an explicit "again".
 */
function AlreadyCreditedWarning({
  id,
  createdAt,
  confirmed,
  onConfirm,
  disabled,
}: {
  id: string;
  createdAt: string;
  confirmed: boolean;
  onConfirm: (confirmed: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="grid gap-3 rounded-lg border border-warning-foreground/30 bg-warning px-4 py-3 text-sm text-warning-foreground">
      <div id={id} className="flex gap-3">
        <TriangleAlertIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div className="grid gap-1">
          <p className="font-semibold">
            These rows were already credited by the import of {formatDateTime(createdAt)}.
          </p>
          <p>
            Importing this file credits them again. It has the same rows as that import, saved differently
            (line endings, number format), so it is not recognised as the same file.
          </p>
        </div>
      </div>
      <div className="flex items-center gap-2 pl-8">
        <Checkbox
          id="credit-again"
          checked={confirmed}
          disabled={disabled}
          onCheckedChange={(next) => onConfirm(next === true)}
          className="bg-background"
        />
        <Label htmlFor="credit-again">Credit these rows again</Label>
      </div>
    </div>
  );
}

/** Focus lost with a button that disabled itself while it ran (it goes to <body>), or still on it. */
function focusLost(...buttons: (HTMLElement | null)[]): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || buttons.includes(active as HTMLElement);
}

/**
 * PROGRAMME-API.md §4 in the console: choose the kind, pick a CSV, check it (a dry run: counts and the
 * errors by line), then import it. Changing the kind, the file or the option asks for a new check, so
 * what is imported is always what was checked.
 */
export function ImportPage() {
  const user = getCurrentUser();
  const [kind, setKind] = useState<ImportKind>('accounts');
  const [file, setFile] = useState<File | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [checked, setChecked] = useState<ImportReport | null>(null);
  const [result, setResult] = useState<ImportReport | null>(null);
  // A check answered with an import's result: bulk credits already imported (the file is one unit, whatever
  // its options), shown as that import's figures.
  const [alreadyImported, setAlreadyImported] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The user's "credit these rows again" for a check that named an earlier import of the same rows.
  const [creditAgain, setCreditAgain] = useState(false);
  const checkButton = useRef<HTMLButtonElement>(null);
  const importButton = useRef<HTMLButtonElement>(null);
  const checkHeading = useRef<HTMLHeadingElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  // The card's sentence is read with its heading when focus moves there.
  const checkNote = useId();
  const duplicateNote = useId();

  const mutation = useMutation({
    mutationFn: (request: ImportRequest) => postImport(request),
    // Check file is a dry run and writes nothing: leaving while it runs is not asked about; an import is.
    meta: { readOnly: (request) => (request as ImportRequest).dryRun },
    onSuccess: (report, request) => {
      if (report.dryRun) return setChecked(report);
      setAlreadyImported(request.dryRun);
      setResult(report);
    },
    onError: (error) => {
      // A file the server cannot read (400 with its line, 413 too large) is shown in place.
      // (A proxy's own page for a 413, nginx's default above 1 MB, is told by its status, not its status line.)
      if (isApiError(error) && (error.status === 400 || error.status === 413))
        setRefusal(error.explained ? error.message : getErrorMessage(error));
      else handleServerError(error, { title: 'Import failed' });
    },
  });

  // Check file and Import disable themselves while they run (Import stays so after an import), which drops a
  // keyboard user's focus on <body>: it goes to the report that arrived (its heading is read out), or back to
  // the button after a failure.
  useEffect(() => {
    if (!focusLost(checkButton.current, importButton.current)) return;
    if (result) resultHeading.current?.focus();
    else if (checked) checkHeading.current?.focus();
  }, [checked, result]);
  useEffect(() => {
    if (!mutation.isError || !focusLost(checkButton.current, importButton.current)) return;
    (mutation.variables?.dryRun ? checkButton : importButton).current?.focus();
  }, [mutation.isError, mutation.variables]);

  const reset = () => {
    setChecked(null);
    setResult(null);
    setRefusal(null);
    setCreditAgain(false);
  };
  const run = (dryRun: boolean) => {
    if (!file || mutation.isPending) return;
    setRefusal(null);
    if (dryRun) {
      setResult(null);
      setCreditAgain(false);
    }
    mutation.mutate({ kind, file, dryRun, skipInvalid });
  };

  if (!user.canManage) {
    return (
      <>
        <PageHeader title="Import" description="Members and bulk credits from a CSV file." />
        <ForbiddenState message="You do not have permission to import data." />
      </>
    );
  }

  const blocked = checked !== null && checked.failed > 0 && !skipInvalid;
  const duplicateOf = result === null ? checked?.duplicateOf : undefined;
  const running = mutation.isPending
    ? mutation.variables?.dryRun
      ? 'Checking the file…'
      : 'Importing…'
    : null;

  return (
    <>
      <PageHeader title="Import" description="Members and bulk credits from a CSV file." />
      <Card>
        <CardHeader>
          <CardTitle>File</CardTitle>
          <CardDescription>Check the file first: nothing is written until you import it.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <KindPicker
            value={kind}
            disabled={mutation.isPending}
            onChange={(next) => {
              setKind(next);
              reset();
            }}
          />
          <FileDrop
            file={file}
            disabled={mutation.isPending}
            onFile={(next) => {
              setFile(next);
              reset();
            }}
          />
          <SkipInvalidOption
            checked={skipInvalid}
            disabled={mutation.isPending}
            onChange={(next) => {
              setSkipInvalid(next);
              reset();
            }}
          />
          {refusal && <FormAlert message={refusal} />}
          {duplicateOf && (
            <AlreadyCreditedWarning
              id={duplicateNote}
              createdAt={duplicateOf.createdAt}
              confirmed={creditAgain}
              onConfirm={setCreditAgain}
              disabled={mutation.isPending}
            />
          )}
          <div className="flex flex-wrap gap-2">
            <Button
              ref={checkButton}
              variant={checked ? 'outline' : 'default'}
              disabled={!file || mutation.isPending}
              onClick={() => run(true)}
            >
              Check file
            </Button>
            <Button
              ref={importButton}
              disabled={
                !checked ||
                blocked ||
                result !== null ||
                mutation.isPending ||
                (!!duplicateOf && !creditAgain)
              }
              onClick={() => run(false)}
            >
              Import
            </Button>
          </div>
          {blocked && (
            <p className="text-sm text-muted-foreground">
              The file has errors: fix them and check it again, or turn on Skip invalid rows.
            </p>
          )}
          {running && <ImportProgress label={running} />}
        </CardContent>
      </Card>

      {checked && !result && (
        <Card>
          <CardHeader>
            <CardTitle
              ref={checkHeading}
              tabIndex={-1}
              // The warning of rows already credited is read with the heading when focus moves there.
              aria-describedby={duplicateOf ? `${checkNote} ${duplicateNote}` : checkNote}
              className="outline-none"
            >
              Check
            </CardTitle>
            <CardDescription id={checkNote}>
              What importing this file would do. Nothing has been written.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ImportReportView report={checked} title="Check report" />
          </CardContent>
        </Card>
      )}

      {result && (
        <Card>
          <CardHeader>
            <CardTitle ref={resultHeading} tabIndex={-1} className="outline-none">
              {resultTitle(result, alreadyImported)}
            </CardTitle>
            <CardDescription aria-live="polite">{resultNote(result, alreadyImported)}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <ImportReportView report={result} title="Import result" />
            {result.importId && user.isAdmin && (
              <Link
                className="text-sm font-medium underline underline-offset-4"
                to="/audit?targetType=import"
              >
                View the audit entry
              </Link>
            )}
          </CardContent>
        </Card>
      )}
    </>
  );
}
