import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

// Select values cannot be empty, and a category could be called anything: prefix the real ones.
const ALL = 'all';
const NONE = 'none';
const CATEGORY = 'category:';

function toSelectValue(category: string | undefined): string {
  if (category === undefined) return ALL;
  return category === '' ? NONE : `${CATEGORY}${category}`;
}

function fromSelectValue(value: string): string | undefined {
  if (value === ALL) return undefined;
  if (value === NONE) return '';
  return value.slice(CATEGORY.length);
}

/** Spec section 2: 'All categories', '(No category)', then the ruleset's categories. */
export function CategoryFilter({
  categories,
  value,
  onChange,
}: {
  categories: string[];
  value: string | undefined;
  onChange: (category: string | undefined) => void;
}) {
  return (
    <Select value={toSelectValue(value)} onValueChange={(next) => onChange(fromSelectValue(next))}>
      <SelectTrigger aria-label="Filter by category" className="h-8 w-44 max-w-full">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All categories</SelectItem>
        <SelectItem value={NONE}>(No category)</SelectItem>
        {categories.map((category) => (
          <SelectItem key={category} value={`${CATEGORY}${category}`}>
            {category}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
