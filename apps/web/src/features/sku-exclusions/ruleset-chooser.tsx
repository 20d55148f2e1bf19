import type { Ruleset } from '@loyalty/contracts';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** Spec section 2: 'Active' is the ruleset the POS applies now; every other one is 'Inactive'. */
export function RulesetActivityBadge({ ruleset }: { ruleset: Ruleset }) {
  return ruleset.inForce ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <Badge variant="secondary">Inactive</Badge>
  );
}

export function rulesetLabel(ruleset: Pick<Ruleset, 'version'>): string {
  return `Version ${ruleset.version}`;
}

export function RulesetChooser({
  rulesets,
  value,
  onChange,
}: {
  rulesets: Ruleset[];
  value: Ruleset | undefined;
  onChange: (id: string) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <Label htmlFor="sku-ruleset">Ruleset</Label>
      <Select value={value?.id ?? ''} onValueChange={onChange} disabled={rulesets.length === 0}>
        <SelectTrigger id="sku-ruleset" className="w-52 max-w-full">
          <SelectValue placeholder="Choose a ruleset">{value ? rulesetLabel(value) : undefined}</SelectValue>
        </SelectTrigger>
        <SelectContent>
          {rulesets.map((ruleset) => (
            <SelectItem key={ruleset.id} value={ruleset.id} textValue={rulesetLabel(ruleset)}>
              <span className="flex w-full items-center justify-between gap-3">
                {rulesetLabel(ruleset)}
                <RulesetActivityBadge ruleset={ruleset} />
              </span>
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {value && (
        <span data-testid="ruleset-activity">
          <RulesetActivityBadge ruleset={value} />
        </span>
      )}
    </div>
  );
}
