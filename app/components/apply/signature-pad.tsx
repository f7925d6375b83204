import { Eraser } from "lucide-react";
import { useCallback, useEffect, useRef, type PointerEvent as ReactPointerEvent } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { cn } from "~/utils/cn";
import { describedBy, ErrorList } from "~/components/ui/form";

/**
 * A hand-written signature pad on a <canvas>, driven by Pointer Events (mouse, touch and pen alike).
 * Strokes are kept as points relative to the pad (0..1), so the drawing survives a resize, a step
 * change and a failed submission, and is re-rendered at a fixed size for the PNG that is sent.
 * For people who cannot draw (keyboard, switch access), typing a name signs as well.
 */

export type SignaturePoint = { x: number; y: number };
export type SignatureValue = { strokes: SignaturePoint[][]; typed: string };

export const EMPTY_SIGNATURE: SignatureValue = { strokes: [], typed: "" };

export function hasSignature(value: SignatureValue): boolean {
  return value.strokes.some((s) => s.length > 0) || value.typed.trim().length > 0;
}

const INK = "#0f2a4f";
const TYPED_FONT = '"Brush Script MT", "Segoe Script", "Lucida Handwriting", "URW Chancery L", cursive';
/** The pad's height in CSS pixels; the width follows the layout. */
const PAD_HEIGHT = 160;

function paint(ctx: CanvasRenderingContext2D, width: number, height: number, value: SignatureValue, background: string | null) {
  ctx.clearRect(0, 0, width, height);
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, width, height);
  }
  const typed = value.typed.trim();
  if (typed) {
    ctx.fillStyle = INK;
    let size = Math.round(height * 0.42);
    ctx.font = `italic ${size}px ${TYPED_FONT}`;
    while (size > 12 && ctx.measureText(typed).width > width * 0.9) {
      size -= 2;
      ctx.font = `italic ${size}px ${TYPED_FONT}`;
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(typed, width / 2, height / 2);
  }
  ctx.strokeStyle = INK;
  ctx.fillStyle = INK;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.lineWidth = Math.max(2, height / 70);
  for (const stroke of value.strokes) drawStroke(ctx, stroke, width, height);
}

function drawStroke(ctx: CanvasRenderingContext2D, stroke: SignaturePoint[], width: number, height: number) {
  if (stroke.length === 0) return;
  const first = stroke[0]!;
  if (stroke.length === 1) {
    ctx.beginPath();
    ctx.arc(first.x * width, first.y * height, ctx.lineWidth / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.beginPath();
  ctx.moveTo(first.x * width, first.y * height);
  for (let i = 1; i < stroke.length; i++) {
    const p = stroke[i]!;
    ctx.lineTo(p.x * width, p.y * height);
  }
  ctx.stroke();
}

/**
 * The signature as a PNG (white background, 600x200), made with canvas.toBlob. Rejects when the
 * browser cannot produce it; the caller shows "Couldn't capture signature. Please try again."
 */
export function signatureToPng(value: SignatureValue, width = 600, height = 200): Promise<Blob> {
  return new Promise((resolve, reject) => {
    try {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext("2d");
      if (!ctx) throw new Error("No 2D context");
      paint(ctx, width, height, value, "#ffffff");
      canvas.toBlob((blob) => (blob && blob.size > 0 ? resolve(blob) : reject(new Error("Empty signature image"))), "image/png");
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

export function SignaturePad({
  id,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  value: SignatureValue;
  onChange: (value: SignatureValue) => void;
  error?: string;
  disabled?: boolean;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const current = useRef<SignaturePoint[] | null>(null);
  const valueRef = useRef(value);
  const labelId = `${id}-label`;
  const instructionsId = `${id}-instructions`;
  const statusId = `${id}-status`;
  const errorId = `${id}-error`;
  const typedId = `${id}-typed`;
  const signed = hasSignature(value);

  const redraw = useCallback(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const strokes = current.current ? [...valueRef.current.strokes, current.current] : valueRef.current.strokes;
    paint(ctx, width, height, { ...valueRef.current, strokes }, null);
  }, []);

  useEffect(() => {
    valueRef.current = value;
    redraw();
  }, [value, redraw]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => redraw());
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [redraw]);

  const point = (event: { clientX: number; clientY: number }): SignaturePoint => {
    const rect = canvasRef.current!.getBoundingClientRect();
    const clamp = (n: number) => Math.min(1, Math.max(0, n));
    return { x: clamp((event.clientX - rect.left) / rect.width), y: clamp((event.clientY - rect.top) / rect.height) };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (disabled || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    current.current = [point(event)];
    redraw();
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!current.current) return;
    event.preventDefault();
    const native = event.nativeEvent;
    const events = typeof native.getCoalescedEvents === "function" ? native.getCoalescedEvents() : [];
    for (const e of events.length ? events : [native]) current.current.push(point(e));
    redraw();
  };

  const finish = () => {
    const stroke = current.current;
    current.current = null;
    if (stroke && stroke.length > 0) onChange({ ...valueRef.current, strokes: [...valueRef.current.strokes, stroke] });
  };

  return (
    <div className="flex flex-col gap-2" data-field="signature">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <p id={labelId} className="text-sm leading-none font-medium text-foreground">
          Signature
          <span aria-hidden="true" className="text-destructive">
            {" "}
            *
          </span>
        </p>
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            current.current = null;
            onChange({ strokes: [], typed: "" });
          }}
          disabled={disabled || !signed}
          aria-label="Clear signature"
        >
          <Eraser aria-hidden="true" />
          Clear
        </Button>
      </div>
      <p id={instructionsId} className="text-xs text-muted-foreground">
        Sign inside the box with your mouse, finger or stylus. If you cannot draw, type your full name below to sign.
      </p>
      <canvas
        ref={canvasRef}
        role="img"
        aria-labelledby={labelId}
        aria-describedby={describedBy(instructionsId, statusId, error ? errorId : null)}
        aria-invalid={error ? true : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={finish}
        onPointerCancel={finish}
        onLostPointerCapture={finish}
        style={{ height: PAD_HEIGHT }}
        className={cn(
          "block w-full touch-none rounded-md border-2 border-dashed bg-white select-none",
          error ? "border-destructive" : "border-input",
          disabled ? "cursor-not-allowed opacity-60" : "cursor-crosshair",
        )}
      >
        Your browser cannot show the signature pad. Type your full name in the field below to sign.
      </canvas>
      <p id={statusId} className="text-xs text-muted-foreground" aria-live="polite">
        {signed ? "Signature captured." : "Not signed yet."}
      </p>
      <div className="flex flex-col gap-2">
        <label htmlFor={typedId} className="text-sm font-medium text-foreground">
          Or type your full name to sign
        </label>
        <Input
          id={typedId}
          name="typedSignature"
          data-field="signature-typed"
          autoComplete="name"
          maxLength={80}
          value={value.typed}
          disabled={disabled}
          onChange={(event) => onChange({ ...valueRef.current, typed: event.currentTarget.value })}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      <ErrorList id={errorId} errors={error} />
    </div>
  );
}
