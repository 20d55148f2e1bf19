import { EyeIcon, EyeOffIcon, WandSparklesIcon } from 'lucide-react';
import { type ComponentProps, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';

/** A masked key field with a show/hide toggle and, when `onGenerate` is given, a generate button. */
export function ApiKeyInput({
  onGenerate,
  className,
  ...props
}: Omit<ComponentProps<typeof Input>, 'type'> & { onGenerate?: () => void }) {
  const [visible, setVisible] = useState(false);
  const toggleLabel = visible ? 'Hide API key' : 'Show API key';
  return (
    <div className="flex gap-2">
      <div className="relative min-w-0 flex-1">
        <Input
          type={visible ? 'text' : 'password'}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          className="pr-10 font-mono"
          {...props}
        />
        <Button
          variant="ghost"
          size="icon-sm"
          className="absolute top-0.5 right-0.5 text-muted-foreground"
          aria-label={toggleLabel}
          aria-pressed={visible}
          title={toggleLabel}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </Button>
      </div>
      {onGenerate && (
        <Tooltip>
          <TooltipTrigger asChild>
            <Button variant="outline" size="icon" aria-label="Generate random API key" onClick={onGenerate}>
              <WandSparklesIcon />
            </Button>
          </TooltipTrigger>
          <TooltipContent>Generate random API key</TooltipContent>
        </Tooltip>
      )}
    </div>
  );
}
