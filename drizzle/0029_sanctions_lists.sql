CREATE TABLE "sanctions_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list_load_id" uuid NOT NULL,
	"list" text NOT NULL,
	"entity_number" integer NOT NULL,
	"primary_name" text NOT NULL,
	"entity_type" text NOT NULL,
	"programs" text[] NOT NULL,
	"aliases" jsonb NOT NULL,
	"dates_of_birth" text[] NOT NULL,
	"countries" text[] NOT NULL,
	"name_keys" text[] NOT NULL,
	"fingerprint" text NOT NULL,
	CONSTRAINT "sanctions_entries_list_entity_number_key" UNIQUE("list","entity_number"),
	CONSTRAINT "sanctions_entries_list_check" CHECK ("sanctions_entries"."list" in ('SDN', 'Consolidated')),
	CONSTRAINT "sanctions_entries_entity_type_check" CHECK ("sanctions_entries"."entity_type" in ('individual', 'entity', 'vessel', 'aircraft'))
);
--> statement-breakpoint
CREATE TABLE "sanctions_list_loads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list" text NOT NULL,
	"published_on" date NOT NULL,
	"file_names" text[] NOT NULL,
	"entry_count" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sanctions_list_loads_list_check" CHECK ("sanctions_list_loads"."list" in ('SDN', 'Consolidated')),
	CONSTRAINT "sanctions_list_loads_entry_count_check" CHECK ("sanctions_list_loads"."entry_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "sanctions_entries" ADD CONSTRAINT "sanctions_entries_list_load_id_sanctions_list_loads_id_fk" FOREIGN KEY ("list_load_id") REFERENCES "public"."sanctions_list_loads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sanctions_entries_list_load_id_idx" ON "sanctions_entries" USING btree ("list_load_id");--> statement-breakpoint
CREATE INDEX "sanctions_list_loads_list_loaded_at_idx" ON "sanctions_list_loads" USING btree ("list","loaded_at");